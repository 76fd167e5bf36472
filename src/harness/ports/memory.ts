/**
 * The long-term memory port: `MemoryStore`, its `MemoryEntry` and its error. Re-exported by
 * `../ports.ts`.
 */
import type { MemoryOrigin, MemorySource } from '../leaf-types.ts';

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
