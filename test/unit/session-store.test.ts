import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import type { SessionResult, SessionStore, StorageEstimate } from '../../src/harness/ports.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { IdbSessionStore, storeErrorOf } from '../../src/storage/idb/session-store.ts';
import { COURSE_PROGRESS, DB_VERSION, MEMORIES, SESSION_EVENTS, SESSIONS, USER_SCOPE } from '../../src/storage/idb/db.ts';

let dbCounter = 0;
const opened: IdbSessionStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

type Make = (o?: { maxBytes?: number; estimate?: () => Promise<StorageEstimate> }) => SessionStore;

const implementations: [string, Make][] = [
  ['in-memory', (o = {}) => new MemorySessionStore({ clock: new FakeClock(1000), ids: new SequentialIds(), ...o })],
  [
    'IndexedDB',
    (o = {}) => {
      const s = new IdbSessionStore({ name: `sessions-${++dbCounter}`, clock: new FakeClock(1000), ids: new SequentialIds(), ...o });
      opened.push(s);
      return s;
    },
  ],
];

const ev = (seq: number, type: TraceEvent['type'] = 'turn.start'): SessionLogEvent =>
  ({ type, seq, ts: seq, agentId: 'main', turn: 1 }) as SessionLogEvent;

function value<T>(r: SessionResult<T>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe.each(implementations)('SessionStore contract: %s', (_name, make) => {
  it('creates empty sessions and lists them newest first', async () => {
    const s = make();
    const a = value(await s.create({ title: 'first' }));
    const b = value(await s.create({ title: 'second', scenarioId: 'hello' }));
    expect(a).toMatchObject({ title: 'first', eventCount: 0, bytes: 0 });
    expect(b.scenarioId).toBe('hello');
    expect(value(await s.list()).map((x) => x.title)).toEqual(['second', 'first']);
    // Writing to the older one makes it the most recent.
    value(await s.append(a.id, [ev(1)]));
    expect(value(await s.list()).map((x) => x.title)).toEqual(['first', 'second']);
  });

  it('rejects a blank title as invalid', async () => {
    const r = await make().create({ title: '   ' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('invalid');
  });

  it('appends in order across batches and loads copies', async () => {
    const s = make();
    const { id } = value(await s.create({ title: 't' }));
    const batch = [ev(1), ev(2, 'transition')];
    const info = value(await s.append(id, batch));
    (batch[0] as { seq: number }).seq = 99; // the caller's objects are not the stored ones
    value(await s.append(id, [ev(3)]));
    value(await s.append(id, []));
    const log = value(await s.load(id));
    expect(log.map((e) => (e as TraceEvent).seq)).toEqual([1, 2, 3]);
    expect(log[1]!.type).toBe('transition');
    expect(info.eventCount).toBe(2);
    const after = value(await s.get(id));
    expect(after.eventCount).toBe(3);
    expect(after.bytes).toBe(
      [ev(1), ev(2, 'transition'), ev(3)].reduce((n, e) => n + JSON.stringify(e).length, 0),
    );
    (log[0] as { seq: number }).seq = 42;
    expect((value(await s.load(id))[0] as TraceEvent).seq).toBe(1);
  });

  it('counts bytes as UTF-8', async () => {
    const s = make();
    const { id } = value(await s.create({ title: 't' }));
    const e = { type: 'transition', reason: 'completed', detail: 'é€😀', seq: 1, ts: 1, agentId: 'main', turn: 0 } as SessionLogEvent;
    const info = value(await s.append(id, [e]));
    expect(info.bytes).toBe(JSON.stringify(e).length - 4 + 2 + 3 + 4);
  });

  it('refuses an entry that is not an event, storing nothing of the batch', async () => {
    const s = make();
    const { id } = value(await s.create({ title: 't' }));
    const r = await s.append(id, [ev(1), { nope: true } as unknown as SessionLogEvent]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid', message: expect.stringMatching(/Entry 1/) });
    expect(value(await s.load(id))).toEqual([]);
  });

  it('reports not_found for unknown sessions everywhere', async () => {
    const s = make();
    for (const r of [await s.append('x', [ev(1)]), await s.load('x'), await s.fork('x', 0, 'f'), await s.rename('x', 'y'), await s.delete('x'), await s.get('x')]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('not_found');
    }
  });

  it('renames', async () => {
    const s = make();
    const { id } = value(await s.create({ title: 'old' }));
    expect(value(await s.rename(id, ' new ')).title).toBe('new');
    expect(value(await s.get(id)).title).toBe('new');
  });

  it('forks a copy up to and including atSeq, leaving the parent as it was', async () => {
    const s = make();
    const parent = value(await s.create({ title: 'p', scenarioId: 'sc' }));
    value(await s.append(parent.id, [ev(1), ev(2), ev(3), ev(4)]));
    const fork = value(await s.fork(parent.id, 2, 'fork at 2'));
    expect(fork).toMatchObject({ parentId: parent.id, forkedAt: 2, eventCount: 2, title: 'fork at 2', scenarioId: 'sc' });
    expect(fork.bytes).toBe(JSON.stringify(ev(1)).length + JSON.stringify(ev(2)).length);
    expect(value(await s.load(fork.id)).map((e) => (e as TraceEvent).seq)).toEqual([1, 2]);
    value(await s.append(fork.id, [ev(10)]));
    expect(value(await s.load(fork.id)).map((e) => (e as TraceEvent).seq)).toEqual([1, 2, 10]);
    expect(value(await s.load(parent.id)).map((e) => (e as TraceEvent).seq)).toEqual([1, 2, 3, 4]);
    expect(value(await s.get(parent.id)).eventCount).toBe(4);
    const empty = value(await s.fork(parent.id, 0, 'empty'));
    expect(value(await s.load(empty.id))).toEqual([]);
  });

  it('refuses a fork position outside the log', async () => {
    const s = make();
    const { id } = value(await s.create({ title: 'p' }));
    value(await s.append(id, [ev(1)]));
    for (const at of [-1, 2, 1.5]) {
      const r = await s.fork(id, at, 'f');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(/entries 1 to 1/);
    }
  });

  it('deletes a session with its log; its forks stay', async () => {
    const s = make();
    const a = value(await s.create({ title: 'a' }));
    const b = value(await s.create({ title: 'b' }));
    value(await s.append(a.id, [ev(1), ev(2)]));
    value(await s.append(b.id, [ev(7)]));
    const f = value(await s.fork(a.id, 1, 'f'));
    value(await s.delete(a.id));
    expect(value(await s.list()).map((x) => x.id).sort()).toEqual([b.id, f.id].sort());
    expect((await s.load(a.id)).ok).toBe(false);
    expect(value(await s.load(b.id))).toHaveLength(1);
    expect(value(await s.load(f.id))).toHaveLength(1);
  });

  it('reports a quota error, stores nothing of that batch and keeps working', async () => {
    const one = JSON.stringify(ev(1)).length;
    const s = make({ maxBytes: one * 3 });
    const { id } = value(await s.create({ title: 't' }));
    value(await s.append(id, [ev(1), ev(2)]));
    const r = await s.append(id, [ev(3), ev(4)]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'quota', message: expect.stringMatching(/storage .* is full/) });
    expect(value(await s.get(id)).eventCount).toBe(2);
    expect(value(await s.load(id))).toHaveLength(2);
    value(await s.append(id, [ev(3)]));
    const fork = await s.fork(id, 3, 'too big');
    expect(fork.ok ? 'ok' : fork.error.code).toBe('quota');
  });

  it('reports usage, with the injected estimate when there is one', async () => {
    const s = make({ estimate: async () => ({ usage: 1234, quota: 99999 }) });
    const { id } = value(await s.create({ title: 't' }));
    const info = value(await s.append(id, [ev(1)]));
    expect(value(await s.usage())).toEqual({ sessionsBytes: info.bytes, usedBytes: 1234, quotaBytes: 99999 });
    expect(value(await make().usage())).toEqual({ sessionsBytes: 0 });
  });
});

describe('IndexedDB session store specifics', () => {
  it('survives a reload (a new store on the same database), beside the memories store', async () => {
    const name = `reload-${++dbCounter}`;
    const a = new IdbSessionStore({ name, clock: new FakeClock(), ids: new SequentialIds() });
    const { id } = value(await a.create({ title: 'kept' }));
    value(await a.append(id, [ev(1), ev(2)]));
    await a.close();
    const b = new IdbSessionStore({ name, clock: new FakeClock(), ids: new SequentialIds() });
    opened.push(b);
    expect(value(await b.load(id))).toHaveLength(2);
    const raw = await openDB(name);
    expect(raw.version).toBe(DB_VERSION);
    expect([...raw.objectStoreNames].sort()).toEqual([MEMORIES, SESSION_EVENTS, SESSIONS, COURSE_PROGRESS, USER_SCOPE].sort());
    raw.close();
  });

  it('upgrades a version-1 database (memories only), keeping its memories', async () => {
    const name = `v1-${++dbCounter}`;
    const old = await openDB(name, 1, { upgrade: (db) => db.createObjectStore(MEMORIES, { keyPath: 'id' }) });
    await old.put(MEMORIES, { id: 'm', content: 'kept' });
    old.close();
    const s = new IdbSessionStore({ name, clock: new FakeClock(), ids: new SequentialIds() });
    opened.push(s);
    value(await s.create({ title: 'after upgrade' }));
    const raw = await openDB(name);
    expect(await raw.get(MEMORIES, 'm')).toEqual({ id: 'm', content: 'kept' });
    raw.close();
  });

  it('reports a log with a hole as damaged instead of replaying a wrong history', async () => {
    const name = `hole-${++dbCounter}`;
    const s = new IdbSessionStore({ name, clock: new FakeClock(), ids: new SequentialIds() });
    opened.push(s);
    const { id } = value(await s.create({ title: 't' }));
    value(await s.append(id, [ev(1), ev(2), ev(3)]));
    const raw = await openDB(name);
    await raw.delete(SESSION_EVENTS, [id, 2]);
    raw.close();
    const r = await s.load(id);
    expect(r.ok ? 'ok' : r.error.message).toMatch(/entry 2 is missing/);
  });

  it('maps QuotaExceededError (direct or as a transaction abort) to a quota error', () => {
    expect(storeErrorOf('x', new DOMException('full', 'QuotaExceededError')).code).toBe('quota');
    expect(storeErrorOf('x', { name: 'AbortError', inner: { name: 'QuotaExceededError' } }).code).toBe('quota');
    expect(storeErrorOf('x', new Error('boom')).code).toBe('unavailable');
  });
});
