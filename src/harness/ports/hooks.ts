/**
 * The hook ports: `JsHookRunner` (a JS hook run away from the page's thread) and `HttpHookClient`
 * (a `type: "http"` hook's POST, for the harness that may not `fetch`). Command hooks need no port
 * of their own: they run through the sandbox. Re-exported by `../ports.ts`.
 */

/** What one JS hook run produced, in the same terms as a command hook's process. */
export type JsHookResult = { exitCode: number; stdout: string; stderr: string; timedOut: boolean };

/**
 * Runs a JS hook — the body of `async function (input) { … }` — away from the page's thread,
 * so a hook can neither touch the harness nor hang it. Implementations: `src/hooks-runtime/`
 * (a Web Worker in the browser, `node:worker_threads` in Node).
 *
 * The contract maps a function onto a command hook's exit code / stdout / stderr:
 * - `return undefined` (or nothing) → exit 0, stdout is whatever `console.log` printed.
 * - `return { block: 'reason' }` → exit 2 with `reason` on stderr (a blocking error; what it
 *   blocks depends on the event, exactly as exit 2 from a command hook).
 * - `return <any other object>` → exit 0, stdout is `JSON.stringify(value)` (the hook's JSON
 *   output: `decision`, `hookSpecificOutput`, `continue`, …); `console.log` output is then dropped
 *   from stdout so that the JSON parses.
 * - `return 'text'` (or a number / boolean) → exit 0, stdout is `String(value)` (plain output).
 * - `throw` → exit 1, stderr is the error message (a non-blocking error).
 * - `console.log` / `info` / `debug` → stdout; `console.error` / `warn` → stderr.
 * - Exceeding `timeoutMs` stops the hook even in a busy loop → `timedOut: true`, exit 124.
 * - `signal` firing stops it → exit 130.
 * - `run` never rejects: a code that does not compile is exit 1 with the syntax error on stderr.
 * The hook has no access to the sandbox, the network helpers of the page, or the harness: only
 * its `input` (plain JSON) and the standard JS globals of a worker.
 */
export interface JsHookRunner {
  run(code: string, input: unknown, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<JsHookResult>;
}

/** One `type: "http"` hook call: the event's JSON input POSTed to `url`. */
export type HttpHookRequest = {
  url: string;
  /** Already interpolated (only `allowedEnvVars` filled); `Content-Type: application/json` is the client's. */
  headers: Record<string, string>;
  /** The hook input, as JSON text. */
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
};

/**
 * What came of it: an HTTP answer (any status), a refusal (the client will not call that URL), or
 * a failure to get an answer at all (connection, timeout, abort).
 */
export type HttpHookResponse =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string; timedOut: boolean };

/**
 * POSTs `type: "http"` hooks' input, for the harness that may not `fetch` itself (`hooks/http-hook.ts`
 * turns the answer into a hook result). Implementations: `src/hooks-runtime/http-hook-client.ts`
 * (Node, the headless runner: any http(s) URL) and `src/ui/state/page-http-hook-client.ts` (the page:
 * only origins the user allowed in Settings → Hook endpoints).
 *
 * Contract:
 * - `post` never rejects; every failure is a value.
 * - A URL the client will not call (not http(s), an origin the user did not allow, the page's
 *   connect lock) is `refused` with a sentence saying why and what to do, and no request goes out.
 * - Redirects are not followed (a redirect is a `response` with its 3xx status): the hook's URL
 *   is the only place the input goes.
 * - After `timeoutMs`, or when `signal` fires, the request is abandoned → `failed` (`timedOut` true
 *   only for the timeout).
 * - The body of the answer is read as text, at most 1 MB (longer is cut).
 */
export interface HttpHookClient {
  post(request: HttpHookRequest): Promise<HttpHookResponse>;
}
