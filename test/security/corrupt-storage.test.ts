/**
 * Attacker (or just a broken build, an extension, devtools): records in every store the app
 * reads back are damaged. Each must be set aside and reported — which record, what is wrong, its
 * raw text — while everything else keeps working: no blank list, no "0 sessions", no empty
 * session opened as if resumed, no crash on preferences.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { importSessionJsonl } from '../../src/harness/session/jsonl.ts';
import { MEMORIES, SESSION_EVENTS, SESSIONS } from '../../src/storage/idb/db.ts';
import { IdbMemoryStore } from '../../src/storage/idb/memory-store.ts';
import { IdbSessionStore } from '../../src/storage/idb/session-store.ts';
import { LocalTrustStore } from '../../src/storage/local/trust-store.ts';
import { Quarantine } from '../../src/storage/quarantine.ts';
import { readPrefs } from '../../src/ui/state/settings.svelte.ts';

let n = 0;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function sessionsWith(): Promise<{ store: IdbSessionStore; quarantine: Quarantine; name: string; ids: string[] }> {
  const name = `corrupt-${++n}`;
  const quarantine = new Quarantine();
  const store = new IdbSessionStore({ name, clock: new FakeClock(1000), ids: new SequentialIds(), quarantine });
  closers.push(() => store.close());
  const ids: string[] = [];
  for (const title of ['first', 'second']) {
    const c = await store.create({ title });
    if (!c.ok) throw new Error(c.error.message);
    ids.push(c.value.id);
    const a = await store.append(c.value.id, [{ type: 'run.start', seq: 1, ts: 1, agentId: 'main', turn: 0 } as never, { type: 'run.end', seq: 2, ts: 2, agentId: 'main', turn: 0 } as never]);
    if (!a.ok) throw new Error(a.error.message);
  }
  return { store, quarantine, name, ids };
}

describe('IndexedDB sessions', () => {
  it('one damaged list record is quarantined; the other sessions are still listed', async () => {
    const { store, quarantine, name, ids } = await sessionsWith();
    const raw = await openDB(name);
    await raw.put(SESSIONS, { id: 'session_evil', title: { toString: null }, createdAt: 'yesterday', eventCount: -1 });
    raw.close();
    const list = await store.list();
    expect(list.ok && list.value.map((s) => s.id).sort()).toEqual([...ids].sort());
    const q = quarantine.list();
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ store: 'sessions', key: 'session_evil', sessionId: 'session_evil' });
    expect(q[0]!.problem).toMatch(/session_evil.*damaged.*title/);
    expect(q[0]!.raw).toContain('yesterday');
  });

  it('a damaged log entry stops load with an error naming the session and the entry, never a half-empty "resumed" log', async () => {
    const { store, quarantine, name, ids } = await sessionsWith();
    const raw = await openDB(name);
    await raw.put(SESSION_EVENTS, { sessionId: ids[0], seq: 2, json: '{"type": "run.end", trunc', bytes: 10 });
    raw.close();
    const log = await store.load(ids[0]!);
    expect(log.ok).toBe(false);
    if (!log.ok) expect(log.error.message).toMatch(/"first".*damaged at entry 2.*not valid JSON.*export the raw entry/);
    expect(quarantine.list()[0]).toMatchObject({ store: 'session_events', key: `${ids[0]}/2`, sessionId: ids[0] });
    // The other session is untouched.
    const other = await store.load(ids[1]!);
    expect(other.ok && other.value.length).toBe(2);
  });

  it('a log that lost its entries does not load as an empty session', async () => {
    const { store, name, ids } = await sessionsWith();
    const raw = await openDB(name);
    await raw.delete(SESSION_EVENTS, IDBKeyRange.bound([ids[0], 1], [ids[0], 99]));
    raw.close();
    const log = await store.load(ids[0]!);
    expect(log.ok).toBe(false);
    if (!log.ok) expect(log.error.message).toMatch(/should hold 2 entries and holds 0/);
  });
});

describe('IndexedDB memories', () => {
  it('a damaged memory is quarantined with its raw text; the rest are listed', async () => {
    const name = `corrupt-mem-${++n}`;
    const quarantine = new Quarantine();
    const s = new IdbMemoryStore({ name, quarantine });
    closers.push(() => s.close());
    await s.put({ id: 'ok', content: 'fine', source: 'explicit', createdAt: 1, updatedAt: 1 });
    const raw = await openDB(name);
    await raw.put(MEMORIES, { id: 'bad', content: ['not', 'text'], source: 'explicit' });
    raw.close();
    expect((await s.list()).map((e) => e.id)).toEqual(['ok']);
    expect(quarantine.list()).toEqual([expect.objectContaining({ store: 'memories', key: 'bad', raw: expect.stringContaining('not') })]);
  });
});

describe('localStorage', () => {
  const storage = (data: Record<string, string>) => ({ getItem: (k: string) => data[k] ?? null, setItem: (k: string, v: string) => void (data[k] = v) });
  it('damaged model preferences fall back to the defaults, with a notice', () => {
    for (const junk of ['{"mode": "anthropic"', '{"mode": "rm -rf", "baseURL": 5}', '[1]']) {
      const r = readPrefs(storage({ 'hp.modelPrefs': junk }));
      expect(r.prefs).toEqual({});
      expect(r.notice).toMatch(/defaults are used/);
    }
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"mode":"anthropic","modelId":"m"}' }))).toEqual({ prefs: { mode: 'anthropic', modelId: 'm' }, notice: null });
  });

  it('a damaged trust record trusts nothing (fail closed)', async () => {
    const s = new LocalTrustStore(storage({ 'hp.trusted.v2': '{"abc": ' }));
    expect(await s.isTrusted('abc')).toBe(false);
    expect(s.list()).toEqual([]);
  });
});

describe('JSONL import', () => {
  it('a malformed record is refused with its line number and nothing is imported', () => {
    const good = JSON.stringify({ type: 'trace', event: { type: 'run.start', seq: 1, ts: 1, agentId: 'main', turn: 0 } });
    const bad = JSON.stringify({ type: 'trace', event: { type: 'message.appended', seq: 2, ts: 2, agentId: 'main', turn: 0, message: { role: 'system', content: 5 } } });
    const r = importSessionJsonl(`${good}\n${bad}\n`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.line).toBe(2);
      expect(r.error).toMatch(/Line 2: the trace record is malformed/);
    }
  });
});
