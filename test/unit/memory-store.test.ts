import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStoreError, type MemoryEntry, type MemoryStore } from '../../src/harness/ports.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { IdbMemoryStore } from '../../src/storage/idb/memory-store.ts';
import { DB_NAME, DB_VERSION, MEMORIES } from '../../src/storage/idb/db.ts';

const entry = (id: string, content: string, createdAt: number, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  content,
  source: 'explicit',
  createdAt,
  updatedAt: createdAt,
  ...extra,
});

let dbCounter = 0;
const opened: IdbMemoryStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A fresh store per test; each idb store gets its own database name, so tests cannot see each other. */
const implementations: [string, () => MemoryStore][] = [
  ['in-memory', () => new InMemoryMemoryStore()],
  [
    'IndexedDB',
    () => {
      const s = new IdbMemoryStore({ name: `contract-${++dbCounter}` });
      opened.push(s);
      return s;
    },
  ],
];

describe.each(implementations)('MemoryStore contract: %s', (_name, make) => {
  it('starts empty', async () => {
    expect(await make().list()).toEqual([]);
  });

  it('puts, gets and lists oldest first (ties by id)', async () => {
    const s = make();
    await s.put(entry('b', 'second', 20));
    await s.put(entry('c', 'also second', 20, { tags: ['x'] }));
    await s.put(entry('a', 'first', 10, { source: 'extracted' }));
    expect((await s.list()).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(await s.get('c')).toEqual(entry('c', 'also second', 20, { tags: ['x'] }));
    expect(await s.get('nope')).toBeNull();
  });

  it('put replaces the entry with the same id', async () => {
    const s = make();
    await s.put(entry('a', 'old', 1));
    await s.put({ ...entry('a', 'new', 1), updatedAt: 5 });
    expect(await s.list()).toEqual([{ ...entry('a', 'new', 1), updatedAt: 5 }]);
  });

  it('stores and returns copies', async () => {
    const s = make();
    const e = entry('a', 'kept', 1, { tags: ['t'] });
    await s.put(e);
    e.content = 'changed after put';
    e.tags!.push('leak');
    const got = (await s.get('a'))!;
    expect(got.content).toBe('kept');
    expect(got.tags).toEqual(['t']);
    got.content = 'changed after get';
    expect((await s.list())[0]!.content).toBe('kept');
  });

  it('delete says whether something was removed; clear removes everything', async () => {
    const s = make();
    await s.put(entry('a', 'x', 1));
    await s.put(entry('b', 'y', 2));
    expect(await s.delete('a')).toBe(true);
    expect(await s.delete('a')).toBe(false);
    expect((await s.list()).map((e) => e.id)).toEqual(['b']);
    await s.clear();
    expect(await s.list()).toEqual([]);
  });

  it('rejects invalid entries with code "invalid" and writes nothing', async () => {
    const s = make();
    const bad = [
      entry('', 'no id', 1),
      entry('a', '   ', 1),
      { ...entry('a', 'x', 1), source: 'rumour' },
      { ...entry('a', 'x', 1), createdAt: Number.NaN },
      { ...entry('a', 'x', 1), tags: [3] },
    ] as unknown as MemoryEntry[];
    for (const e of bad) {
      const err = await s.put(e).then(() => null, (x: unknown) => x);
      expect(err).toBeInstanceOf(MemoryStoreError);
      expect((err as MemoryStoreError).code).toBe('invalid');
    }
    expect(await s.list()).toEqual([]);
  });

  it('drops fields the contract does not name', async () => {
    const s = make();
    await s.put({ ...entry('a', 'x', 1), secret: 'no' } as MemoryEntry);
    expect(Object.keys((await s.get('a'))!).sort()).toEqual(['content', 'createdAt', 'id', 'source', 'updatedAt']);
  });
});

describe('IndexedDB store specifics', () => {
  it('persists across store instances (a reload) in the one database "harness-playground"', async () => {
    const a = new IdbMemoryStore();
    await a.clear();
    await a.put(entry('m1', 'survives', 1));
    await a.close();
    const b = new IdbMemoryStore();
    opened.push(b);
    expect((await b.list()).map((e) => e.content)).toEqual(['survives']);
    const raw = await openDB(DB_NAME);
    expect(raw.version).toBe(DB_VERSION);
    expect([...raw.objectStoreNames]).toContain(MEMORIES);
    raw.close();
  });

  it('skips a damaged record, reports it, and still lists the rest', async () => {
    const problems: string[] = [];
    const s = new IdbMemoryStore({ name: 'damaged', onProblem: (m) => problems.push(m) });
    opened.push(s);
    await s.put(entry('ok', 'fine', 1));
    const raw = await openDB('damaged');
    await raw.put(MEMORIES, { id: 'bad', content: 42 });
    raw.close();
    expect((await s.list()).map((e) => e.id)).toEqual(['ok']);
    expect(await s.get('bad')).toBeNull();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/damaged.*content must be non-empty text/);
  });

  it('upgrades an older database that lacks the store, keeping what else it has', async () => {
    const old = await openDB('upgrade-me', 1, { upgrade: (db) => db.createObjectStore('other') });
    await old.put('other', 'v', 'k');
    old.close();
    const s = new IdbMemoryStore({ name: 'upgrade-me', version: DB_VERSION + 1 });
    opened.push(s);
    await s.put(entry('a', 'after upgrade', 1));
    expect((await s.list()).map((e) => e.id)).toEqual(['a']);
    const raw = await openDB('upgrade-me');
    expect(await raw.get('other', 'k')).toBe('v');
    raw.close();
  });

  it('reports a database without the store at the same version as corrupt', async () => {
    (await openDB('no-store', 1, { upgrade: (db) => db.createObjectStore('sessions') })).close();
    const s = new IdbMemoryStore({ name: 'no-store', version: 1 });
    const err = await s.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryStoreError);
    expect((err as MemoryStoreError).code).toBe('corrupt');
    expect((err as Error).message).toMatch(/no "memories" store.*Clear this site's data/);
  });

  it('reports a database from a newer build as corrupt, telling to reload', async () => {
    (await openDB('newer', DB_VERSION + 5, { upgrade: (db) => db.createObjectStore(MEMORIES, { keyPath: 'id' }) })).close();
    const s = new IdbMemoryStore({ name: 'newer', version: 1 });
    const err = (await s.list().catch((e: unknown) => e)) as MemoryStoreError;
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/newer version.*Reload/);
  });

  it('reports "blocked" while another tab holds an older version open, and works once it lets go', async () => {
    const other = await openDB('held', 1, { upgrade: (db) => db.createObjectStore(MEMORIES, { keyPath: 'id' }) });
    // The other tab ignores versionchange (an old build without a `blocking` handler).
    const s = new IdbMemoryStore({ name: 'held', version: DB_VERSION + 1 });
    opened.push(s);
    const err = (await s.list().catch((e: unknown) => e)) as MemoryStoreError;
    expect(err).toBeInstanceOf(MemoryStoreError);
    expect(err.code).toBe('blocked');
    expect(err.message).toMatch(/another tab/);
    other.close();
    await expect.poll(() => s.list().then(() => 'open', (e: MemoryStoreError) => e.code), { timeout: 5_000 }).toBe('open');
  });

  it('steps aside when a newer version wants the database, then reopens on the next call', async () => {
    const s = new IdbMemoryStore({ name: 'yield' });
    opened.push(s);
    await s.put(entry('a', 'x', 1));
    const newer = await openDB('yield', DB_VERSION + 1, { upgrade: () => {} });
    expect(newer.version).toBe(DB_VERSION + 1);
    newer.close();
    // Our schema is older now: the store says so rather than crashing.
    const err = (await s.list().catch((e: unknown) => e)) as MemoryStoreError;
    expect(err.code).toBe('corrupt');
  });
});
