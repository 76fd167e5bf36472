/**
 * An in-memory `MemoryStore` for Node tests and headless runs: memories last as long as the
 * object. Same contract as the IndexedDB store (one shared suite tests both).
 */
import { MemoryStoreError, type MemoryEntry, type MemoryStore } from '../../harness/ports.ts';
import { byAge, parseEntry } from '../../harness/memory/index.ts';

export class InMemoryMemoryStore implements MemoryStore {
  private readonly entries = new Map<string, MemoryEntry>();

  constructor(initial: readonly MemoryEntry[] = []) {
    for (const e of initial) {
      const parsed = parseEntry(e);
      if (typeof parsed === 'string') throw new MemoryStoreError('invalid', parsed);
      this.entries.set(parsed.id, parsed);
    }
  }

  async list(): Promise<MemoryEntry[]> {
    return [...this.entries.values()].map(copy).sort(byAge);
  }

  async get(id: string): Promise<MemoryEntry | null> {
    const e = this.entries.get(id);
    return e ? copy(e) : null;
  }

  async put(entry: MemoryEntry): Promise<void> {
    const parsed = parseEntry(entry);
    if (typeof parsed === 'string') throw new MemoryStoreError('invalid', `${parsed}; nothing was saved`);
    this.entries.set(parsed.id, parsed);
  }

  async delete(id: string): Promise<boolean> {
    return this.entries.delete(id);
  }

  async clear(): Promise<void> {
    this.entries.clear();
  }
}

function copy(e: MemoryEntry): MemoryEntry {
  return { ...e, ...(e.tags ? { tags: [...e.tags] } : {}), ...(e.origin ? { origin: { ...e.origin } } : {}) };
}
