/**
 * Runs a JS custom tool's body inside a worker (browser Worker or node:worker_threads) and maps
 * what it does onto a `UserToolResult` (contract on `UserToolRunner` in src/harness/ports.ts).
 *
 * SELF-CONTAINED on purpose, like `hooks-runtime/run-hook-body.ts`: the runners ship it to the
 * worker as source text (`runToolBody.toString()`), so it references nothing outside its body.
 * `callFiles(op, args)` is the worker's side of the message proxy to the harness's `UserToolFiles`.
 */
export async function runToolBody(
  code: string | ((input: unknown, files: unknown) => Promise<unknown>),
  input: unknown,
  callFiles: (op: 'read' | 'write' | 'list', args: unknown[]) => Promise<unknown>,
): Promise<{ ok: true; output: string; logs: string } | { ok: false; error: string; logs: string; timedOut: false; aborted: false }> {
  const out: string[] = [];
  const show = (v: unknown): string => {
    if (typeof v === 'string') return v;
    try {
      return JSON.stringify(v) ?? String(v);
    } catch {
      return String(v);
    }
  };
  const c = globalThis.console as unknown as Record<string, unknown>;
  c.log = c.info = c.debug = c.error = c.warn = (...a: unknown[]) => void out.push(`${a.map(show).join(' ')}\n`);
  const errorText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  const fail = (error: string) => ({ ok: false as const, error, logs: out.join(''), timedOut: false as const, aborted: false as const });
  const files = Object.freeze({
    read: (path: string) => callFiles('read', [path]),
    write: (path: string, content: string) => callFiles('write', [path, content]),
    list: (dir = '.') => callFiles('list', [dir]),
  });
  let fn: (input: unknown, files: unknown) => Promise<unknown>;
  try {
    if (typeof code === 'function') fn = code;
    else {
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (a: string, b: string, body: string) => typeof fn;
      fn = new AsyncFunction('input', 'files', code);
    }
  } catch (e) {
    return fail(`the code does not compile: ${errorText(e)}`);
  }
  let value: unknown;
  try {
    value = await fn(input, files);
  } catch (e) {
    return fail(errorText(e));
  }
  if (value === undefined || value === null) return { ok: true, output: out.join(''), logs: '' };
  if (typeof value === 'string') return { ok: true, output: value, logs: out.join('') };
  try {
    return { ok: true, output: JSON.stringify(value, null, 2) ?? String(value), logs: out.join('') };
  } catch (e) {
    return fail(`it returned a value that is not JSON: ${errorText(e)}`);
  }
}
