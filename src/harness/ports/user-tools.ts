/**
 * The custom-tool port: `UserToolRunner` runs a user-written JS tool away from the page's thread,
 * giving it only `UserToolFiles`. Re-exported by `../ports.ts`.
 */
import type { DirEntry } from './sandbox.ts';

/**
 * The narrow file API a JS custom tool gets: read, write and list inside the project, nothing else.
 * Paths are relative to the project or absolute inside it; anything outside rejects. The runner
 * proxies each call by message to the harness side, so user code never holds the sandbox itself.
 */
export interface UserToolFiles {
  read(path: string): Promise<string>;
  write(path: string, content: string): Promise<void>;
  list(dir: string): Promise<DirEntry[]>;
}

/** What one JS tool run produced: its return value as text, or why it failed. */
export type UserToolResult =
  | { ok: true; output: string; logs: string }
  | { ok: false; error: string; logs: string; timedOut: boolean; aborted: boolean };

/**
 * Runs a JS custom tool — the body of `async function (input, files) { … }` — away from the
 * page's thread. Implementations: `src/user-code/tools/` (the browser's opaque-origin user-code
 * frame, a fresh Worker per run; in Node a `worker_threads` Worker, which is NOT isolated the way
 * the browser is: it bounds time, not reach).
 *
 * Contract:
 * - `return 'text'` → output is the text; `return <JSON value>` → output is `JSON.stringify(value)`;
 *   `return undefined` → output is what `console.log` printed.
 * - `throw` (or a body that does not compile) → `ok: false` with the message.
 * - `files.read / write / list` reach `files` by message; their rejections reject in the tool.
 * - `timeoutMs` stops it even in a busy loop (`timedOut`); `signal` stops it (`aborted`).
 * - `run` never rejects.
 */
export interface UserToolRunner {
  run(source: string, input: unknown, files: UserToolFiles, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<UserToolResult>;
}
