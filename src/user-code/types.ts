/**
 * A runtime for user-authored JavaScript (JS hooks today; custom tools and in-page MCP servers
 * later). The browser's implementation is `createFrameRuntime()` (an opaque-origin sandbox frame).
 *
 * Contract:
 * - `start` runs `source` as a classic script in a fresh worker global and posts `data` (a
 *   structured clone) to it. The worker answers with `postMessage`; each message goes to
 *   `on.message`. A load or top-level failure goes to `on.error` (then nothing more is delivered).
 * - The code can reach nothing but what it is sent: no app storage (IndexedDB, localStorage,
 *   cookies, caches), no network (fetch, XHR, WebSocket, EventSource, importScripts, import()),
 *   no DOM of the app.
 * - `post(value)` (optional) sends the worker more messages while it runs, in order.
 * - `stop()` ends the job at once, even mid busy loop; after it no callback fires. Stopping twice
 *   is harmless. Timeouts are the caller's (see `hooks-runtime/settle-once.ts`).
 */
export interface UserCodeRuntime {
  start(job: { source: string; data: unknown }, on: UserCodeListener): UserCodeJob;
  /** Removes the sandbox and ends every job. */
  dispose(): void;
}

export type UserCodeListener = { message(value: unknown): void; error(message: string): void };
export type UserCodeJob = {
  stop(): void;
  /**
   * Posts another message to the running job's worker (a structured clone), after its `data`
   * and in call order; dropped once the job stopped. Long-lived jobs (in-page MCP servers) use it.
   */
  post?(value: unknown): void;
};
