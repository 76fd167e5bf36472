/**
 * Leaf types shared by `ports.ts`, `trace.ts` and `session/types.ts`. This file imports none of
 * them, so those three no longer import each other in a circle (test/unit/import-cycles.test.ts
 * keeps it so). `ports.ts` re-exports everything here: import from either.
 */

// ─── Model ──────────────────────────────────────────────────────────────────────────────────

/**
 * What can go wrong with a model call, as data the loop acts on.
 * `retryable` is the client's judgement (429, 529, 5xx, connection, cut stream); the loop
 * decides whether its retry budget allows another attempt.
 */
export type ModelErrorKind =
  | 'rate_limit' // 429
  | 'overloaded' // 529
  | 'server' // other 5xx
  | 'connection' // no response, DNS, refused, reset
  | 'stream_cut' // the stream ended without message_stop, or an `error` event arrived mid-stream
  | 'authentication' // 401
  | 'permission' // 403
  | 'not_found' // 404
  | 'prompt_too_long' // 400 "prompt is too long" / 413
  | 'invalid_request' // other 400
  | 'aborted' // the caller's signal fired
  | 'unknown';

export type ModelError = {
  kind: ModelErrorKind;
  /** What happened and what to do, in words a user can act on. */
  message: string;
  status?: number;
  retryable: boolean;
  /** Server-requested delay (from `retry-after-ms` / `retry-after`), when it gave one. */
  retryAfterMs?: number;
};

// ─── Sandbox ────────────────────────────────────────────────────────────────────────────────

export type SandboxKind = 'just-bash' | 'webcontainer';

// ─── Memory ─────────────────────────────────────────────────────────────────────────────────

/**
 * Where a memory came from: `extracted` by the harness after an exchange (model or rules),
 * `explicit` — the person said so ("remember: …", or added it in the memory panel),
 * `project_file` — a `# memory:` line in a CLAUDE.md-style note.
 */
/** `compaction_summary`: an auto or manual compaction's summary, kept so the next session can pick up there. */
export type MemorySource = 'extracted' | 'explicit' | 'project_file' | 'compaction_summary';

/**
 * Where a memory came from. `user`: the person wrote it (the memory panel, or a prompt they
 * typed; `sessionId` when it was said in a run). `document`: a trusted scenario's own prompt said
 * it — such a memory is the document's and is injected only into runs of that same document
 * (`hash`, its trust key). Memories from untrusted documents are never saved at all.
 */
export type MemoryOrigin =
  | { kind: 'user'; sessionId?: string }
  | { kind: 'document'; scenarioId: string; hash: string; title?: string; sessionId?: string };

// ─── Replay ─────────────────────────────────────────────────────────────────────────────────

/**
 * A replaying model found that a tool call's result in this run is not what the recording saw
 * (a hook blocked it, a rule denied it, a file differs): the recorded replies that follow were
 * written for another reality. `expected` / `actual` are the two results, each cut to a short head.
 */
export type ReplayDivergence = {
  toolUseId: string;
  name: string;
  /** The script's turn (1-based) whose call it was. */
  recordedTurn: number;
  /** What differs: the error flag (an error where the recording succeeded, or the reverse), or the text. */
  what: 'is_error' | 'content';
  expected: { content: string; isError: boolean };
  actual: { content: string; isError: boolean };
};

// ─── Tools ──────────────────────────────────────────────────────────────────────────────────

/** An image a tool returns (an MCP server's `image` content): it reaches the model as an image block. */
export type ToolImage = { mediaType: string; data: string };
