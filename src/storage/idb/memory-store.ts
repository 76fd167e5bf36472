/**
 * The browser's `MemoryStore`: the `memories` object store of the app's IndexedDB database
 * (`db.ts`). Same contract as the in-memory store (one shared suite tests both, this one under
 * fake-indexeddb).
 *
 * The connection is opened on first use and reused; if another tab's upgrade or the browser
 * closes it, the next call opens it again. A record that is not a valid entry (written by hand,
 * or by a broken build) is skipped by `list` and reported through `onProblem`, so one bad record
 * never hides the others.
 */
import type { IDBPDatabase } from 'idb';
import { MemoryStoreError, type MemoryEntry, type MemoryStore } from '../../harness/ports.ts';
import { byAge, parseEntry } from '../../harness/memory/index.ts';
import { MEMORIES, openHarnessDb, type OpenOptions } from './db.ts';
import { rawText, type Quarantine } from '../quarantine.ts';

export type IdbMemoryStoreOptions = Omit<OpenOptions, 'onClose'> & {
  /** Told about records that were skipped because they are not valid entries. */
  onProblem?: (message: string) => void;
  /** Where damaged records are kept for "export raw" (see `../quarantine.ts`). */
  quarantine?: Quarantine;
};

export class IdbMemoryStore implements MemoryStore {
  private conn: Promise<IDBPDatabase> | null = null;

  constructor(private readonly opts: IdbMemoryStoreOptions = {}) {}

  private db(): Promise<IDBPDatabase> {
    if (!this.conn) {
      const opening = openHarnessDb({ ...this.opts, onClose: () => (this.conn = null) });
      this.conn = opening;
      // A failed open is not cached: the next call tries again (the other tab may have closed).
      opening.catch(() => {
        if (this.conn === opening) this.conn = null;
      });
    }
    return this.conn;
  }

  async list(): Promise<MemoryEntry[]> {
    const records = await this.run('reading memories', async (db) => (await db.getAll(MEMORIES)) as unknown[]);
    const out: MemoryEntry[] = [];
    for (const r of records) {
      const parsed = parseEntry(r);
      if (typeof parsed === 'string') this.damaged(r, parsed);
      else out.push(parsed);
    }
    return out.sort(byAge);
  }

  async get(id: string): Promise<MemoryEntry | null> {
    const r: unknown = await this.run('reading a memory', (db) => db.get(MEMORIES, id));
    if (r === undefined) return null;
    const parsed = parseEntry(r);
    if (typeof parsed === 'string') {
      this.damaged(r, parsed);
      return null;
    }
    return parsed;
  }

  async put(entry: MemoryEntry): Promise<void> {
    const parsed = parseEntry(entry);
    if (typeof parsed === 'string') throw new MemoryStoreError('invalid', `${parsed}; nothing was saved`);
    await this.run('saving a memory', (db) => db.put(MEMORIES, parsed));
  }

  async delete(id: string): Promise<boolean> {
    return this.run('deleting a memory', async (db) => {
      const tx = db.transaction(MEMORIES, 'readwrite');
      const existed = (await tx.store.getKey(id)) !== undefined;
      if (existed) await tx.store.delete(id);
      await tx.done;
      return existed;
    });
  }

  async clear(): Promise<void> {
    await this.run('clearing memories', (db) => db.clear(MEMORIES));
  }

  private damaged(record: unknown, why: string): void {
    const key = String((record as { id?: unknown } | null)?.id ?? '(no id)');
    const problem = `The stored memory "${key}" was skipped because it is damaged (${why}).`;
    this.opts.onProblem?.(problem);
    this.opts.quarantine?.add({ store: 'memories', key, problem, raw: rawText(record) });
  }

  /** Closes the connection (tests; a page never needs to). */
  async close(): Promise<void> {
    const conn = this.conn;
    this.conn = null;
    if (conn) (await conn.catch(() => null))?.close();
  }

  /** Runs one operation; platform errors come out as `MemoryStoreError`s that say what failed. */
  private async run<T>(what: string, op: (db: IDBPDatabase) => Promise<T>): Promise<T> {
    const db = await this.db();
    try {
      return await op(db);
    } catch (err) {
      if (err instanceof MemoryStoreError) throw err;
      const e = err as { name?: string; message?: string } | null;
      if (e?.name === 'InvalidStateError') this.conn = null; // the connection closed under us: reopen next time
      const hint = e?.name === 'QuotaExceededError' ? ' The browser storage for this site is full; delete some memories or clear old data.' : '';
      throw new MemoryStoreError('unavailable', `IndexedDB failed while ${what}: ${e?.message ?? String(err)}.${hint}`);
    }
  }
}
