/**
 * `type: "http"` hooks, as Claude Code runs them: the event's JSON input is POSTed to the hook's
 * `url` through the `HttpHookClient` port (the harness never fetches), and the answer is read the
 * way a command hook's process is:
 *
 * - 2xx with an empty body → success with no output (exit 0);
 * - 2xx with a body → that body is the hook's stdout (a JSON object is its answer, other text is
 *   plain output), so `decision`, `hookSpecificOutput`, `continue` work as for a command hook;
 * - any other status, no answer, a timeout or a refusal → a non-blocking error (exit 1). A status
 *   alone never blocks: to block, an endpoint answers 2xx with `decision: "block"` (or `deny`).
 *
 * Header values may name environment variables (`$VAR` or `${VAR}`); only those listed in the
 * hook's `allowedEnvVars` are filled, every other reference becomes empty — so a settings file
 * cannot send a secret it did not name.
 */
import type { HttpHookClient } from '../ports.ts';
import type { HookInput } from './input.ts';
import type { HookProcessResult } from './interpret.ts';

/** A `$VAR` / `${VAR}` reference in a header value. */
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** `headers` with `$VAR` / `${VAR}` filled from `env` for names in `allowed`; others become `''`. */
export function interpolateHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  allowed: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const ok = new Set(allowed ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = value.replace(ENV_REF, (_m, braced: string | undefined, bare: string | undefined) => {
      const v = (braced ?? bare)!;
      return ok.has(v) ? (env[v] ?? '') : '';
    });
  }
  return out;
}

/** What an http hook's run adds to its `hook.run` event. */
export type HttpHookExtra = { status?: number; refused?: boolean };

export async function runHttpHook(
  hook: { url: string; headers?: Record<string, string> | undefined; allowedEnvVars?: string[] | undefined },
  input: HookInput,
  client: HttpHookClient,
  opts: { timeoutMs: number; signal?: AbortSignal; env: Readonly<Record<string, string | undefined>> },
): Promise<{ result: HookProcessResult; extra: HttpHookExtra }> {
  const url = hook.url.trim();
  const r = await client.post({
    url,
    headers: interpolateHeaders(hook.headers, hook.allowedEnvVars, opts.env),
    body: JSON.stringify(input),
    timeoutMs: opts.timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (r.kind === 'refused') return { result: { exitCode: 1, stdout: '', stderr: r.message, timedOut: false }, extra: { refused: true } };
  if (r.kind === 'failed') return { result: { exitCode: 1, stdout: '', stderr: `POST ${url} failed: ${r.message}`, timedOut: r.timedOut }, extra: {} };
  if (r.status < 200 || r.status > 299) {
    const body = r.body.trim();
    return { result: { exitCode: 1, stdout: '', stderr: `POST ${url} answered HTTP ${r.status}${body ? `: ${body.slice(0, 300)}` : ''}`, timedOut: false }, extra: { status: r.status } };
  }
  return { result: { exitCode: 0, stdout: r.body, stderr: '', timedOut: false }, extra: { status: r.status } };
}
