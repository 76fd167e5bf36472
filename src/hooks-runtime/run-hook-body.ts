/**
 * Runs a JS hook's code inside a worker (browser Worker or node:worker_threads) and maps what it
 * does onto a command hook's exit code / stdout / stderr — the contract documented on
 * `JsHookRunner` in src/harness/ports.ts.
 *
 * This function is SELF-CONTAINED on purpose: the Node runner ships it to its worker as source
 * text (`runHookBody.toString()`), so it must not reference anything outside its own body — no
 * imports, no module-level helpers. Timeouts are not handled here: the runner terminates the
 * worker, which stops even a busy loop.
 *
 * `code` is the hook's body as text (compiled here with the AsyncFunction constructor), or that
 * body already compiled: the browser's sandbox forbids eval, so there the body is part of the
 * worker's own script (`hook-worker-source.ts`) and arrives as a function.
 */
export async function runHookBody(code: string | ((input: unknown) => Promise<unknown>), input: unknown): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const show = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.stack ?? `${v.name}: ${v.message}`;
    try {
      return JSON.stringify(v) ?? String(v);
    } catch {
      return String(v);
    }
  };
  const line = (args: unknown[]) => `${args.map(show).join(' ')}\n`;
  const c = globalThis.console as unknown as Record<string, unknown>;
  c.log = c.info = c.debug = (...a: unknown[]) => void out.push(line(a));
  c.error = c.warn = (...a: unknown[]) => void err.push(line(a));
  const errorText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

  let fn: (input: unknown) => Promise<unknown>;
  try {
    if (typeof code === 'function') fn = code;
    else {
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (arg: string, body: string) => typeof fn;
      fn = new AsyncFunction('input', code);
    }
  } catch (e) {
    return { exitCode: 1, stdout: '', stderr: `The hook's code does not compile: ${errorText(e)}\n` };
  }
  let value: unknown;
  try {
    value = await fn(input);
  } catch (e) {
    return { exitCode: 1, stdout: out.join(''), stderr: `${err.join('')}${errorText(e)}\n` };
  }
  const logged = out.join('');
  const logErr = err.join('');
  if (value === undefined || value === null) return { exitCode: 0, stdout: logged, stderr: logErr };
  if (typeof value !== 'object') return { exitCode: 0, stdout: String(value), stderr: logErr };
  const o = value as Record<string, unknown>;
  if (typeof o.block === 'string' || o.block === true) {
    const reason = typeof o.block === 'string' ? o.block : 'blocked by a JS hook';
    return { exitCode: 2, stdout: logged, stderr: `${logErr}${reason}` };
  }
  if (typeof o.exitCode === 'number' && Number.isInteger(o.exitCode)) {
    return {
      exitCode: o.exitCode,
      stdout: typeof o.stdout === 'string' ? o.stdout : logged,
      stderr: typeof o.stderr === 'string' ? o.stderr : logErr,
    };
  }
  try {
    // The returned object is the hook's JSON output; console.log text would spoil the parse.
    return { exitCode: 0, stdout: JSON.stringify(value), stderr: logErr };
  } catch (e) {
    return { exitCode: 1, stdout: logged, stderr: `${logErr}The hook returned a value that is not JSON: ${errorText(e)}\n` };
  }
}
