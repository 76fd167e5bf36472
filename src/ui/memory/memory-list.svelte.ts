/**
 * The memory panel's list: loads the store, adds / edits / deletes entries, and keeps the
 * displayed list equal to what is stored (it re-reads after every write rather than trusting
 * its own copy). Store failures become `error`, a sentence the panel shows; nothing throws.
 */
import type { Clock, IdGen, MemoryEntry, MemoryStore } from '../../harness/ports.ts';
import { realClock, randomIds } from '../../harness/clock.ts';
import { normalizeFact } from '../../harness/memory/index.ts';

export class MemoryList {
  entries = $state.raw<MemoryEntry[]>([]);
  loaded = $state(false);
  /** The last failure, in words; cleared by the next success. */
  error = $state<string | null>(null);
  /** Damaged records the store skipped. */
  problems = $state.raw<string[]>([]);
  busy = $state(false);

  constructor(
    private readonly store: MemoryStore,
    private readonly clock: Clock = realClock,
    private readonly ids: IdGen = randomIds,
  ) {}

  noteProblem(message: string): void {
    if (!this.problems.includes(message)) this.problems = [...this.problems, message];
  }

  async load(): Promise<void> {
    await this.attempt(async () => {
      this.entries = await this.store.list();
      this.loaded = true;
    });
  }

  /** Adds an explicit memory; returns false (with `error` set) when it was not saved. */
  async add(content: string): Promise<boolean> {
    const text = content.trim();
    if (!text) return false;
    const now = this.clock.now();
    return this.attempt(async () => {
      const kept = await this.store.list();
      if (kept.some((e) => normalizeFact(e.content) === normalizeFact(text))) throw new Error('That memory is already kept.');
      await this.store.put({ id: this.ids.next('mem'), content: text, source: 'explicit', createdAt: now, updatedAt: now, origin: { kind: 'user' } });
      this.entries = await this.store.list();
    });
  }

  async update(id: string, content: string): Promise<boolean> {
    const text = content.trim();
    const current = this.entries.find((e) => e.id === id);
    if (!current || !text) return false;
    if (text === current.content) return true;
    return this.attempt(async () => {
      await this.store.put({ ...current, content: text, updatedAt: this.clock.now() });
      this.entries = await this.store.list();
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.attempt(async () => {
      await this.store.delete(id);
      this.entries = await this.store.list();
    });
  }

  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Runs `op` after the ones before it (writes never interleave), and reports how it went. */
  private attempt(op: () => Promise<void>): Promise<boolean> {
    this.pending++;
    this.busy = true;
    const run = this.queue.then(async () => {
      try {
        await op();
        this.error = null;
        return true;
      } catch (err) {
        this.error = err instanceof Error ? err.message : String(err);
        return false;
      } finally {
        this.busy = --this.pending > 0;
      }
    });
    this.queue = run;
    return run;
  }
}
