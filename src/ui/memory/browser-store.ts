/**
 * The page's one memory store (IndexedDB), shared by the memory panel and the run controller,
 * so a memory edited in the panel is what the next run ranks. Damaged records the store skips
 * are passed on to whoever listens (the panel shows them).
 */
import type { MemoryStore } from '../../harness/ports.ts';
import { IdbMemoryStore } from '../../storage/idb/memory-store.ts';
import { pageQuarantine } from '../../storage/quarantine.ts';

let store: IdbMemoryStore | null = null;
const listeners = new Set<(message: string) => void>();

export function browserMemoryStore(): MemoryStore {
  store ??= new IdbMemoryStore({ onProblem: (m) => listeners.forEach((l) => l(m)), quarantine: pageQuarantine });
  return store;
}

/** Hear about skipped records; returns the unsubscribe function. */
export function onMemoryStoreProblem(listener: (message: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
