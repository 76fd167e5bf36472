/**
 * Memory origins: a memory is the user's (they wrote it, or said it in a prompt they typed) or a
 * document's (a trusted scenario's own prompt said "Remember: …"). The rules:
 *
 * - A document's memory is injected only into runs of that same document (same trust key, so the
 *   same bytes): a link cannot plant a fact that steers the user's later, unrelated sessions.
 * - An untrusted or declined document's memories are never saved (`refusingStore`): its "Remember:"
 *   shows up as a `memory.extracted` problem that says why, and nothing reaches the store.
 * - A memory stored before origins existed has none and counts as the user's ("user (legacy)").
 */
import { MemoryStoreError, type MemoryEntry, type MemoryOrigin, type MemoryStore } from '../ports.ts';

/** `value` as an origin, or null (absent or malformed: the entry is read as legacy). */
export function parseOrigin(value: unknown): MemoryOrigin | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const sessionId = typeof v.sessionId === 'string' && v.sessionId ? { sessionId: v.sessionId } : {};
  if (v.kind === 'user') return { kind: 'user', ...sessionId };
  if (v.kind === 'document' && typeof v.scenarioId === 'string' && typeof v.hash === 'string' && v.hash) {
    return { kind: 'document', scenarioId: v.scenarioId, hash: v.hash, ...(typeof v.title === 'string' ? { title: v.title } : {}), ...sessionId };
  }
  return null;
}

/** What the panel and the injection view say about where a memory came from. */
export function originLabel(origin: MemoryOrigin | undefined): string {
  if (!origin) return 'user (legacy)';
  if (origin.kind === 'user') return origin.sessionId ? `user, in session ${origin.sessionId}` : 'user';
  return `scenario ${origin.title ? `"${origin.title}" ` : ''}(${origin.scenarioId}, #${origin.hash.slice(0, 8)})`;
}

/** Whether a memory may go into a run of the document with trust key `documentHash` (none: no document). */
export function injectableInto(entry: MemoryEntry, documentHash: string | undefined): boolean {
  return entry.origin?.kind !== 'document' || entry.origin.hash === documentHash;
}

/**
 * A store whose `put` tags every new entry with `origin` (entries that already have one keep it).
 * A function is asked at each `put`: the session a run is recorded in may exist only once it runs.
 */
export function taggingStore(store: MemoryStore, origin: MemoryOrigin | (() => MemoryOrigin)): MemoryStore {
  return {
    list: () => store.list(),
    get: (id) => store.get(id),
    put: (entry) => store.put(entry.origin ? entry : { ...entry, origin: typeof origin === 'function' ? origin() : origin }),
    delete: (id) => store.delete(id),
    clear: () => store.clear(),
  };
}

/**
 * A store that reads but never writes: for runs of an untrusted document, whose "Remember: …"
 * must not become the user's memory. `put` rejects with `why`, which the `memory.extracted`
 * event then shows beside each fact that was not kept.
 */
export function refusingStore(store: MemoryStore, why: string): MemoryStore {
  const refuse = () => Promise.reject(new MemoryStoreError('invalid', why));
  return { list: () => store.list(), get: (id) => store.get(id), put: refuse, delete: refuse, clear: refuse };
}
