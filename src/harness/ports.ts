/**
 * The ports: every side effect the harness has reaches it through one of these interfaces,
 * injected as `deps`. `src/harness/` imports nothing that touches the DOM, IndexedDB or the
 * network, so the same loop runs in Node (tests, benchmarks, headless runs) and in the browser.
 *
 * Implementations live beside the harness: `src/model/*`, `src/sandbox/*`, `src/storage/*`.
 */
import type { AssistantBlock, ModelRequest, StopDetails, StopReason, Usage } from './messages.ts';
import type { SessionLogEvent } from './session/types.ts';
import type { MemoryOrigin, MemorySource, ModelError, ReplayDivergence, SandboxKind } from './leaf-types.ts';
// Leaf types live in `leaf-types.ts` (which imports none of ports / trace / session), so trace.ts
// can use them without a cycle; re-exported here so every existing import keeps working.
import type { JsonRpcExchange, McpServerSpec } from './mcp/types.ts';
export type { MemoryOrigin, MemorySource, ModelError, ModelErrorKind, ReplayDivergence, SandboxKind } from './leaf-types.ts';

// ─── Model ──────────────────────────────────────────────────────────────────────────────────

/**
 * The Anthropic streaming events, normalised. A stream is:
 * `message_start` → (`content_block_start` → `content_block_delta`* → `content_block_stop`)* →
 * `message_delta` → `message_stop`, with `ping` anywhere. A failure ends the stream with one `error`.
 */
export type ModelStreamEvent =
  | { type: 'message_start'; message: { id: string; model: string; usage: Partial<Usage> } }
  | { type: 'content_block_start'; index: number; content_block: AssistantBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: StopReason | null; stop_details?: StopDetails | null }; usage: Partial<Usage> }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: ModelError };

/**
 * A Messages-API-compatible model.
 *
 * Contract:
 * - `stream` never throws and never rejects: every failure (HTTP status, network, a stream cut
 *   short, an `error` event, abort) is delivered as one final `{type:'error'}` event, after
 *   which the iterable ends.
 * - A successful stream ends with `message_stop`. A stream that ends without it must be reported
 *   as `error` with kind `stream_cut` so the caller never mistakes a partial reply for a whole one.
 * - The client does not retry on its own; the loop owns retries so each one is a visible event.
 * - When `signal` fires the client stops reading and yields `error` with kind `aborted`.
 */
export interface ModelClient {
  /** A short label for the UI and traces, e.g. `scripted` or `anthropic`. */
  readonly name: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /** Exact input-token count for a request, when the backend can tell. Rejects on failure. */
  countTokens?(request: ModelRequest, signal?: AbortSignal): Promise<number>;
  /**
   * A replaying client only (scripted turns that carry recorded results): the loop calls it with
   * each request just before `stream`, and it returns the tool results in the request that differ
   * from what the recording saw for the calls it played. Each call is judged once: a retry of the
   * same request returns nothing new. Must not throw; a live model has no such method.
   */
  replayCheck?(request: ModelRequest): ReplayDivergence[];
}

// ─── Sandbox ────────────────────────────────────────────────────────────────────────────────

/** Every sandbox uses this working directory, so scenarios and traces are portable. */
export const WORKDIR = '/home/project';

/**
 * The sandbox user's home directory (`HOME` for every command, `~` in permission rules): separate
 * from the project, as on a real machine, so `~/.ssh/id_rsa` is outside the working directory.
 */
export const HOME_DIR = '/home/user';

export type ExecOptions = {
  /** Absolute directory; defaults to {@link WORKDIR}. */
  cwd?: string;
  env?: Record<string, string>;
  /** Wall-clock limit; on expiry the command is stopped and the result has `timedOut`, exit 124. */
  timeoutMs?: number;
  /** When fired the command is stopped and the result has `aborted`, exit 130. */
  signal?: AbortSignal;
  /** Text fed to the command's standard input (hooks read their JSON input from here). */
  stdin?: string;
  /** Output as it arrives, for streaming into the UI. May be called after in batches. */
  onOutput?: (chunk: { stream: 'stdout' | 'stderr'; text: string }) => void;
  /** Keep at most this many characters of each stream (head + tail); default 30,000. */
  maxOutputChars?: number;
};

export type ExecResult = {
  stdout: string;
  stderr: string;
  /** 0 success; 124 timed out; 126 limit exceeded; 127 command not found; 130 aborted. */
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
  /** True when either stream was cut to head + tail; the cut is marked in the text. */
  truncated: boolean;
};

export type FileStat = { kind: 'file' | 'dir'; size: number; mtimeMs: number };

export type DirEntry = { name: string; kind: 'file' | 'dir' };

/** Raised by {@link SandboxFs} methods; `code` follows POSIX (ENOENT, EISDIR, ENOTDIR, EEXIST …). */
export class SandboxFsError extends Error {
  constructor(
    readonly code: string,
    readonly path: string,
    message?: string,
  ) {
    super(message ?? `${code}: ${path}`);
    this.name = 'SandboxFsError';
  }
}

/**
 * File operations on the sandbox's file system. Paths are absolute (or relative to
 * {@link WORKDIR}). Methods reject with {@link SandboxFsError} on failure; callers that face the
 * model (tools) catch it and turn it into an error result.
 */
export interface SandboxFs {
  readFile(path: string): Promise<string>;
  /** Creates missing parent directories. */
  writeFile(path: string, content: string): Promise<void>;
  /** Entries of one directory, sorted by name. */
  list(dir: string): Promise<DirEntry[]>;
  /** `null` when nothing is at `path`. */
  stat(path: string): Promise<FileStat | null>;
  mkdir(path: string, opts?: { recursive?: boolean }): Promise<void>;
  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * The absolute path `path` really names, with every symbolic link on it resolved (POSIX
   * `realpath`, component by component), so a caller can confine access to a folder: after
   * `ln -s /home/user homelink`, `homelink/x` is `/home/user/x`. Unlike POSIX it does not reject
   * when the path does not exist: the part that does not exist is kept as written (a dangling
   * link is replaced by its target), so a write target is checked before it is created. Rejects
   * `ELOOP` for a link cycle. An implementation that cannot see links rejects (`ENOTSUP`) for a
   * path it cannot vouch for rather than answer lexically — callers treat a rejection as "refuse".
   */
  realpath(path: string): Promise<string>;
  /**
   * Calls `listener` after any change made through this sandbox (fs or exec). Returns an
   * unsubscribe function. Changes are coalesced; the listener re-reads what it needs.
   */
  watch(listener: (event: { paths: string[] }) => void): () => void;
}

/** What a sandbox can promise beyond the common contract. */
export type SandboxCapabilities = {
  /**
   * An abort stops even a busy loop at once (another thread or process runs the commands, so
   * the caller's signal is seen while the loop spins). False for a sandbox that interprets in
   * the caller's thread: there a busy loop ends by its timeout or command limit.
   */
  preemptiveAbort: boolean;
};

/**
 * Where the agent's commands and files live.
 *
 * Contract (checked by the cases in `src/sandbox/contract.ts` for every implementation, in Node
 * and, from Settings → self-check, in the browser):
 * - `exec` never rejects; failures are in the result. Each call starts with fresh shell state
 *   (cwd, variables, functions) while files persist.
 * - Exit codes: 124 timeout, 126 limit exceeded, 127 command not found, 130 aborted.
 * - Output beyond `maxOutputChars` is kept as head + tail with a marker saying how much was cut.
 * - A timeout really stops the command, even a busy loop. An abort stops it as soon as the
 *   sandbox's thread is free: at once when `capabilities.preemptiveAbort` (WebContainer: another
 *   process; just-bash in a Worker); for just-bash in the caller's thread, at the command's next
 *   wait, else by its timeout or command limit.
 */
export interface Sandbox {
  readonly kind: SandboxKind;
  readonly workdir: string;
  /** Absent means none beyond the common contract (`preemptiveAbort: false`). */
  readonly capabilities?: SandboxCapabilities;
  exec(command: string, opts?: ExecOptions): Promise<ExecResult>;
  readonly fs: SandboxFs;
  /** Git the harness can drive itself (isolated workspaces on real branches); absent: none. */
  readonly git?: SandboxGit;
  /** Release workers and instances; the sandbox is unusable afterwards. */
  dispose(): Promise<void>;
}

/** Who a commit is by (`GIT_AUTHOR_*` / `GIT_COMMITTER_*`). */
export type GitIdentity = { name: string; email: string };

/**
 * Git in the sandbox, for the harness's own bookkeeping: an isolated workspace in a git project
 * is a linked worktree on its own branch, committed when the agent finishes and merged back with
 * a real merge commit (`harness/workspace/git-backing.ts`). Optional on {@link Sandbox}: absent
 * when the sandbox has no git to drive (WebContainer has no git binary), and then a workspace is
 * a plain copy. Implementation: `src/sandbox/git-port.ts`, through the sandbox's own `git` command
 * (isomorphic-git in just-bash), so what it does is what `git log` / `git worktree list` show.
 *
 * Contract (test/unit/git-port.test.ts):
 * - Paths are absolute; `dir` is the top of the project's working tree (the main worktree).
 * - `head(dir)` resolves to the commit and the branch checked out there (branch null when
 *   detached) when `dir` is the top of a git working tree with at least one commit; otherwise
 *   null. It never rejects for "not a repository".
 * - `addWorktree` is `git worktree add -b <branch> <path> <commit>`: a new branch at `commit`,
 *   checked out in a new linked worktree at `path`. It rejects when the branch exists or `path`
 *   is not empty, and then creates nothing.
 * - `commit(path, …)` stages exactly `paths` (relative to `path`; added, changed or deleted) in the
 *   worktree at `path` and commits them on its branch; resolves to the new commit, or null when
 *   none of them differs from that branch's tip.
 * - `recordMerge(dir, …)`: the working tree at `dir` already holds the merged content of `paths`.
 *   Stages them and records `branch`'s tip as merged: with `conclude` and no merge already in
 *   progress, a merge commit on the checked-out branch (parents: HEAD, then the tip), even when
 *   HEAD could fast-forward; otherwise the merge is left in progress (the tip joins `MERGE_HEAD`)
 *   for the `git commit` that concludes it once the conflicts are resolved.
 * - `removeWorktree(dir, path)` is `git worktree remove --force <path>`: the folder and its
 *   bookkeeping go, the branch and its commits stay.
 * - Failures reject with an Error carrying git's own message.
 */
export interface SandboxGit {
  head(dir: string): Promise<{ commit: string; branch: string | null } | null>;
  addWorktree(dir: string, opts: { path: string; branch: string; commit: string }): Promise<void>;
  commit(path: string, opts: { paths: readonly string[]; message: string; author?: GitIdentity }): Promise<string | null>;
  recordMerge(dir: string, opts: { branch: string; paths: readonly string[]; message: string; conclude: boolean; author?: GitIdentity }): Promise<{ commit: string | null; inProgress: boolean }>;
  removeWorktree(dir: string, path: string): Promise<void>;
}

// ─── JS hooks ───────────────────────────────────────────────────────────────────────────────

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

// ─── HTTP hooks ─────────────────────────────────────────────────────────────────────────────

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

// ─── Custom tools (user-written JS) ───────────────────────────────────────────────────────

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

// ─── MCP servers ────────────────────────────────────────────────────────────────────────────

/**
 * Opens MCP servers, so the harness never imports a transport. Implementations: `src/mcp/`
 * (the official SDK client over Streamable HTTP / SSE, and over messages to an in-page server
 * running in the user-code runtime or a Node worker thread).
 *
 * Contract:
 * - `connect` resolves once the initialize handshake is done, or rejects with an Error whose
 *   message says what failed in words a user can act on (refused, not found, timed out after
 *   `timeoutMs`, not an MCP server), on one line — never a validation dump. `signal` aborts it.
 * - `listTools` returns the raw `tools` of every `tools/list` page (the harness checks them);
 *   it rejects like `connect`.
 * - `callTool` never rejects: a transport failure, a timeout (`timeoutMs`), an abort or a
 *   JSON-RPC error is `{ ok: false, message }`; a reply is `{ ok: true, result }` with the raw
 *   result, unchecked. Both carry the raw JSON-RPC request and response when they exist.
 * - `close` ends the connection (stops an in-page server's worker); calling it twice is harmless.
 */
export interface McpConnector {
  /** Whether this host can start stdio servers (local processes): the headless runner can, a browser cannot. */
  readonly startsProcesses?: boolean;
  connect(spec: McpServerSpec, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<McpConnection>;
}

export interface McpConnection {
  readonly transport: 'http' | 'sse' | 'in-page' | 'stdio';
  readonly serverName?: string;
  readonly serverVersion?: string;
  listTools(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<unknown[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ ok: true; result: unknown; exchange: JsonRpcExchange } | { ok: false; message: string; exchange?: JsonRpcExchange }>;
  close(): Promise<void>;
}

// ─── Time and ids ───────────────────────────────────────────────────────────────────────────

/**
 * Time, injected so traces are reproducible and tests never wait on the wall clock.
 * `sleep` resolves after `ms` (a fake clock may resolve at once and advance `now`), and rejects
 * with an `AbortError`-named error if `signal` fires first.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Identifiers, injected for the same reason. `next('toolu')` → e.g. `toolu_0001`. */
export interface IdGen {
  next(prefix: string): string;
}

// ─── Trust ──────────────────────────────────────────────────────────────────────────────────

/**
 * Which actionable settings content (hooks, allow rules, permissive modes) the user has trusted,
 * keyed by the SHA-256 of that content (`trustKey` in `harness/trust/`): a changed link or file
 * has a new key and is asked about again. Implementations: in-memory (tests), browser storage (UI).
 */
export interface TrustStore {
  isTrusted(key: string): Promise<boolean>;
  /** Records trust; `label` says what was trusted (e.g. the scenario title), for a "trusted items" list. */
  trust(key: string, label: string): Promise<void>;
  revoke(key: string): Promise<void>;
}

// ─── Memory ─────────────────────────────────────────────────────────────────────────────────


/** One long-term memory: a short fact in plain words. Plain JSON, so it can be stored and shown. */
export type MemoryEntry = {
  id: string;
  content: string;
  source: MemorySource;
  /** Milliseconds since the epoch, from the injected clock. */
  createdAt: number;
  updatedAt: number;
  tags?: string[];
  /** Where the fact came from; absent on memories stored before origins existed ("user (legacy)"). */
  origin?: MemoryOrigin;
  /** How many runs it was injected into (absent = 0); see `memory/decay.ts`. */
  references?: number;
  /** When it was last injected (ms); absent = never, decay then counts from `updatedAt`. */
  lastReferencedAt?: number;
};

export type MemoryStoreErrorCode =
  /** The entry given to `put` is not a valid entry (empty id or content, unknown source). */
  | 'invalid'
  /** The storage cannot be opened at all (disabled, private mode, quota). */
  | 'unavailable'
  /** Another tab holds an older version of the database open and does not let go. */
  | 'blocked'
  /** The stored database is not what this build expects (missing store, newer version). */
  | 'corrupt';

/** Raised by {@link MemoryStore} methods; `message` says what happened and what to do. */
export class MemoryStoreError extends Error {
  constructor(
    readonly code: MemoryStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryStoreError';
  }
}

/**
 * Long-term memories across conversations. Implementations: in-memory (`src/storage/memory/`,
 * Node tests and headless runs) and IndexedDB (`src/storage/idb/`, the browser). Both pass the
 * one contract suite in `test/unit/memory-store.test.ts`.
 *
 * Contract:
 * - `put` inserts or replaces the entry with that `id`; it stores a copy (later changes to the
 *   caller's object do not leak in) and rejects with code `invalid` for an empty `id` or `content`,
 *   an unknown `source`, or non-numeric timestamps — nothing is written then.
 * - `get` returns a copy, or `null` for an unknown id. `delete` returns whether something was
 *   removed (deleting an unknown id is not an error). `clear` removes every entry.
 * - `list` returns copies of every entry, oldest first (`createdAt`, then `id`). A stored record
 *   that is not a valid entry is skipped, never returned half-formed.
 * - Failures of the storage itself reject with {@link MemoryStoreError} (`unavailable`, `blocked`,
 *   `corrupt`) — never a raw platform exception — so a caller can show the message and go on
 *   without memories.
 */
export interface MemoryStore {
  list(): Promise<MemoryEntry[]>;
  get(id: string): Promise<MemoryEntry | null>;
  put(entry: MemoryEntry): Promise<void>;
  delete(id: string): Promise<boolean>;
  clear(): Promise<void>;
}

// ─── Sessions ───────────────────────────────────────────────────────────────────────────────

/** One conversation's entry in the sessions list. Plain JSON. */
export type SessionInfo = {
  id: string;
  title: string;
  /** The session this one was forked from. */
  parentId?: string;
  /** The log seq (1-based position in the parent's log) the fork copied up to, inclusive. */
  forkedAt?: number;
  /** The scenario the session started from, when it did. */
  scenarioId?: string;
  /** Milliseconds since the epoch, from the injected clock. */
  createdAt: number;
  updatedAt: number;
  /** Entries in the log; the last one has log seq `eventCount`. */
  eventCount: number;
  /** UTF-8 size of the log's JSON, for the storage line of the sessions panel. */
  bytes: number;
};

export type SessionStoreErrorCode =
  /** The browser refused to store more (`QuotaExceededError`, or the store's own cap). */
  | 'quota'
  /** No session with that id. */
  | 'not_found'
  /** A bad argument: empty title, a fork position outside the log, an event that is not JSON. */
  | 'invalid'
  /** The storage cannot be used at all (no IndexedDB, private mode, another tab blocking, damage). */
  | 'unavailable';

/** What went wrong, in words a person can act on. */
export type SessionStoreError = { code: SessionStoreErrorCode; message: string };

/** Every store call resolves to one of these; none rejects. */
export type SessionResult<T> = { ok: true; value: T } | { ok: false; error: SessionStoreError };

/** Bytes used and available, as the browser reports them (`navigator.storage.estimate`). */
export type StorageEstimate = { usage?: number; quota?: number };

export type SessionUsage = {
  /** Sum of `bytes` over every session. */
  sessionsBytes: number;
  /** Whole-origin figures from the injected estimate, when there is one. */
  usedBytes?: number;
  quotaBytes?: number;
};

/**
 * Conversations and their append-only logs. Implementations: in-memory
 * (`src/storage/memory/session-store.ts`, Node tests and headless runs) and IndexedDB
 * (`src/storage/idb/session-store.ts`, the browser). Both pass the one contract suite in
 * `test/unit/session-store.test.ts`. Log entries are `SessionLogEvent`s (`harness/session/types.ts`).
 *
 * Contract:
 * - No method rejects: failures come back as `{ok:false, error}` with a {@link SessionStoreErrorCode}.
 * - `create` makes an empty session (`eventCount` 0) with id and timestamps from the injected
 *   `IdGen` / `Clock`; a blank title is `invalid`.
 * - `list` returns every session, most recently updated first (ties: newer `createdAt`, then id).
 * - `append` adds the entries at the end of the log, all or nothing, in one write (one IndexedDB
 *   transaction); an empty batch is a no-op. It stores copies (later changes to the caller's
 *   objects do not leak in) and updates `eventCount`, `bytes` and `updatedAt`. On `quota` nothing
 *   of the batch is stored, and the caller's own objects are untouched, so it can retry later.
 * - `load` returns copies of the entries in append order (entry i has log seq i + 1).
 * - `fork(id, atSeq, title)` creates a session whose log is a copy of entries 1..atSeq of `id`
 *   (0 ≤ atSeq ≤ eventCount, else `invalid`), with `parentId` and `forkedAt` set. The parent is
 *   not changed.
 * - `delete` removes the session and its log; forks of it stay (their `parentId` then names no
 *   session). Deleting an unknown id is `not_found`.
 * - `rename` changes the title (and `updatedAt`).
 * - `usage` sums `bytes` and adds the origin's estimate when one was injected.
 */
export interface SessionStore {
  create(opts: { title: string; scenarioId?: string }): Promise<SessionResult<SessionInfo>>;
  get(sessionId: string): Promise<SessionResult<SessionInfo>>;
  list(): Promise<SessionResult<SessionInfo[]>>;
  rename(sessionId: string, title: string): Promise<SessionResult<SessionInfo>>;
  delete(sessionId: string): Promise<SessionResult<void>>;
  append(sessionId: string, events: readonly SessionLogEvent[]): Promise<SessionResult<SessionInfo>>;
  load(sessionId: string): Promise<SessionResult<SessionLogEvent[]>>;
  fork(sessionId: string, atSeq: number, title: string): Promise<SessionResult<SessionInfo>>;
  usage(): Promise<SessionResult<SessionUsage>>;
}
