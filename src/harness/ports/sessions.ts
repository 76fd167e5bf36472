/**
 * The sessions port: `SessionStore` (conversations and their append-only logs), its list entry,
 * results and errors. Re-exported by `../ports.ts`.
 */
import type { SessionLogEvent } from '../session/types.ts';

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
