/**
 * The browser's `SessionStore`: the `sessions` and `session_events` object stores of the app's
 * IndexedDB database (`db.ts`). Same contract as the in-memory store; one shared suite tests both
 * (this one under fake-indexeddb).
 *
 * Each log entry is one record `{ sessionId, seq, json, bytes }` keyed `[sessionId, seq]`, so a
 * session's log is one key range: `load` is one `getAll`, `delete` one range delete. The entry is
 * kept as its JSON text: no structured clone of deep event objects, and the stored copy is
 * exactly what was counted in `bytes`. Every write is one readwrite transaction over both stores,
 * so a batch and the session's counters land together or not at all.
 *
 * Everything read back is validated (`harness/session/validate.ts`): a damaged list record is
 * left out of `list` (the others still show) and a damaged log entry stops `load` with an error
 * naming the session and the entry; both are put in `quarantine` with their raw text for export.
 */
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import {
  MemoryStoreError,
  type Clock,
  type IdGen,
  type SessionInfo,
  type SessionResult,
  type SessionStore,
  type SessionStoreError,
  type SessionUsage,
  type StorageEstimate,
} from '../../harness/ports.ts';
import { checkForkPosition, checkTitle, encodeBatch, fail, forkedSessionInfo, newestFirst, newSessionInfo, notFound, notFoundError, ok, quotaMessage, storedTitle, usageOf } from '../../harness/session/light.ts';
import type { SessionLogEvent } from '../../harness/session/light.ts';
import { SESSION_EVENTS, SESSIONS, openHarnessDb, type OpenOptions } from './db.ts';
import { rawText, type Quarantine } from '../quarantine.ts';

type Checks = Pick<typeof import('../../harness/session/index.ts'), 'checkLogEntry' | 'checkSessionInfo'>;

/**
 * The stored records' checks (their schemas: zod), loaded at the first read, before any request of
 * it (so no transaction waits on the load): the page's first screen does not carry them.
 */
const loadChecks = (): Promise<Checks> => import('../../harness/session/index.ts');

export type IdbSessionStoreOptions = Omit<OpenOptions, 'onClose'> & {
  clock: Clock;
  ids: IdGen;
  /** Refuse writes past this many bytes of logs (tests; the browser's own quota applies anyway). */
  maxBytes?: number;
  /** The origin's storage estimate: pass `() => navigator.storage.estimate()` in the browser. */
  estimate?: () => Promise<StorageEstimate>;
  /** Where damaged records are reported (with their raw text); default: nowhere. */
  quarantine?: Quarantine;
};

type EventRecord = { sessionId: string; seq: number; json: string; bytes: number };

type Tx = IDBPTransaction<unknown, string[], 'readwrite'>;

/** The key range of one session's log (entries seq ≥ from, ≤ to). */
function logRange(sessionId: string, from = 1, to = Number.MAX_SAFE_INTEGER): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, from], [sessionId, to]);
}

/** Maps what IndexedDB throws to a store error; quota is recognised however it arrives. */
export function storeErrorOf(what: string, err: unknown): SessionStoreError {
  if (err instanceof MemoryStoreError) {
    return { code: 'unavailable', message: err.message.replace('memories cannot be saved', 'sessions cannot be saved') };
  }
  const e = err as { name?: string; message?: string; inner?: { name?: string } } | null;
  if (e?.name === 'QuotaExceededError' || e?.inner?.name === 'QuotaExceededError') return { code: 'quota', message: quotaMessage(what) };
  return { code: 'unavailable', message: `IndexedDB failed while saving or reading ${what}: ${e?.message ?? String(err)}. Reload the page; if it persists, export your sessions and clear this site's data.` };
}

/** Aborting a transaction from inside it, with a result to hand back instead of the abort error. */
class Refused {
  constructor(readonly error: SessionStoreError) {}
}

export class IdbSessionStore implements SessionStore {
  private conn: Promise<IDBPDatabase> | null = null;

  constructor(private readonly opts: IdbSessionStoreOptions) {}

  async create(o: { title: string; scenarioId?: string }): Promise<SessionResult<SessionInfo>> {
    const bad = checkTitle(o.title);
    if (bad) return { ok: false, error: bad };
    const info = newSessionInfo({ id: this.opts.ids.next('session'), title: o.title, scenarioId: o.scenarioId, now: this.opts.clock.now() });
    return this.run('the new session', async (db) => {
      await db.put(SESSIONS, info);
      return ok(info);
    });
  }

  async get(id: string): Promise<SessionResult<SessionInfo>> {
    return this.run('the session', async (db) => {
      const checks = await loadChecks();
      const raw: unknown = await db.get(SESSIONS, id);
      if (raw === undefined) return notFound(id);
      const info = this.checkInfo(checks, raw, id);
      return typeof info === 'string' ? fail('unavailable', info) : ok(info);
    });
  }

  async list(): Promise<SessionResult<SessionInfo[]>> {
    return this.run('the sessions list', async (db) => {
      const checks = await loadChecks();
      const out: SessionInfo[] = [];
      // One damaged record must not hide the others: it is quarantined, the rest are listed.
      for (const raw of (await db.getAll(SESSIONS)) as unknown[]) {
        const info = this.checkInfo(checks, raw, String((raw as { id?: unknown } | null)?.id ?? '(no id)'));
        if (typeof info !== 'string') out.push(info);
      }
      return ok(out.sort(newestFirst));
    });
  }

  /** A list record, or the message of its quarantine entry. */
  private checkInfo(checks: Checks, raw: unknown, key: string): SessionInfo | string {
    const info = checks.checkSessionInfo(raw);
    if (typeof info !== 'string') return info;
    const problem = `The sessions list record "${key}" is damaged (${info}), so it is not listed.`;
    this.opts.quarantine?.add({ store: 'sessions', key, sessionId: key, problem, raw: rawText(raw) });
    return problem;
  }

  async rename(id: string, title: string): Promise<SessionResult<SessionInfo>> {
    const bad = checkTitle(title);
    if (bad) return { ok: false, error: bad };
    return this.write('the new title', async (tx) => {
      const info = (await tx.objectStore(SESSIONS).get(id)) as SessionInfo | undefined;
      if (!info) throw new Refused(notFoundError(id));
      const next = { ...info, title: storedTitle(title), updatedAt: this.opts.clock.now() };
      await tx.objectStore(SESSIONS).put(next);
      return next;
    });
  }

  async delete(id: string): Promise<SessionResult<void>> {
    return this.write('the deletion', async (tx) => {
      const sessions = tx.objectStore(SESSIONS);
      if ((await sessions.getKey(id)) === undefined) throw new Refused(notFoundError(id));
      await sessions.delete(id);
      await tx.objectStore(SESSION_EVENTS).delete(logRange(id));
    });
  }

  async append(id: string, events: readonly SessionLogEvent[]): Promise<SessionResult<SessionInfo>> {
    const batch = encodeBatch(events);
    if (!batch.ok) return { ok: false, error: batch.error };
    const what = `the last ${events.length} step(s)`;
    return this.write(what, async (tx) => {
      const sessions = tx.objectStore(SESSIONS);
      const info = (await sessions.get(id)) as SessionInfo | undefined;
      if (!info) throw new Refused(notFoundError(id));
      if (events.length === 0) return info;
      await this.checkQuota(tx, batch.bytes, what);
      const store = tx.objectStore(SESSION_EVENTS);
      batch.entries.forEach((e, i) => {
        const record: EventRecord = { sessionId: id, seq: info.eventCount + i + 1, json: e.json, bytes: e.bytes };
        void store.put(record);
      });
      const next = { ...info, eventCount: info.eventCount + events.length, bytes: info.bytes + batch.bytes, updatedAt: this.opts.clock.now() };
      await sessions.put(next);
      return next;
    });
  }

  async load(id: string): Promise<SessionResult<SessionLogEvent[]>> {
    return this.run('the session log', async (db) => {
      const checks = await loadChecks();
      const rawInfo: unknown = await db.get(SESSIONS, id);
      if (rawInfo === undefined) return notFound(id);
      const info = this.checkInfo(checks, rawInfo, id);
      if (typeof info === 'string') return fail('unavailable', info);
      const records = (await db.getAll(SESSION_EVENTS, logRange(id))) as EventRecord[];
      const out: SessionLogEvent[] = [];
      const name = `"${info.title}" (${id})`;
      for (const r of records) {
        if (r?.seq !== out.length + 1) {
          return fail('unavailable', `The log of session ${name} is damaged: entry ${out.length + 1} is missing. Export what is left, or fork it at entry ${out.length}.`);
        }
        const entry = checks.checkLogEntry(r.json);
        if (typeof entry === 'string') {
          const problem = `The log of session ${name} is damaged at entry ${r.seq}: ${entry}. It was not opened; export the raw entry, or fork the session at entry ${r.seq - 1}.`;
          this.opts.quarantine?.add({ store: 'session_events', key: `${id}/${r.seq}`, sessionId: id, problem, raw: rawText(r) });
          return fail('unavailable', problem);
        }
        out.push(entry);
      }
      // A log shorter than its record says would open as a "resumed" session over empty panels.
      if (out.length < info.eventCount) {
        return fail('unavailable', `The log of session ${name} is damaged: it should hold ${info.eventCount} entries and holds ${out.length}. Fork it at entry ${out.length} to keep what is left.`);
      }
      return ok(out);
    });
  }

  async fork(id: string, atSeq: number, title: string): Promise<SessionResult<SessionInfo>> {
    const badTitle = checkTitle(title);
    if (badTitle) return { ok: false, error: badTitle };
    return this.write('the fork', async (tx) => {
      const sessions = tx.objectStore(SESSIONS);
      const info = (await sessions.get(id)) as SessionInfo | undefined;
      if (!info) throw new Refused(notFoundError(id));
      const bad = checkForkPosition(info, atSeq);
      if (bad) throw new Refused(bad);
      const events = tx.objectStore(SESSION_EVENTS);
      const copied = atSeq === 0 ? [] : ((await events.getAll(logRange(id, 1, atSeq))) as EventRecord[]);
      const bytes = copied.reduce((n, r) => n + r.bytes, 0);
      await this.checkQuota(tx, bytes, 'the fork');
      const fork = forkedSessionInfo(info, { id: this.opts.ids.next('session'), title, atSeq, now: this.opts.clock.now(), eventCount: copied.length, bytes });
      for (const r of copied) void events.put({ ...r, sessionId: fork.id });
      await sessions.put(fork);
      return fork;
    });
  }

  async usage(): Promise<SessionResult<SessionUsage>> {
    const listed = await this.list();
    if (!listed.ok) return listed;
    return usageOf(listed.value.reduce((n, s) => n + s.bytes, 0), this.opts.estimate);
  }

  /** Closes the connection (tests; a page never needs to). */
  async close(): Promise<void> {
    const conn = this.conn;
    this.conn = null;
    if (conn) (await conn.catch(() => null))?.close();
  }

  private async checkQuota(tx: Tx, extra: number, what: string): Promise<void> {
    if (this.opts.maxBytes === undefined) return;
    const all = (await tx.objectStore(SESSIONS).getAll()) as SessionInfo[];
    const used = all.reduce((n, s) => n + s.bytes, 0);
    if (used + extra > this.opts.maxBytes) throw new Refused({ code: 'quota', message: quotaMessage(what) });
  }

  private db(): Promise<IDBPDatabase> {
    if (!this.conn) {
      const { clock: _c, ids: _i, maxBytes: _m, estimate: _e, ...open } = this.opts;
      const opening = openHarnessDb({ ...open, onClose: () => (this.conn = null) }).then((db) => {
        const missing = [SESSIONS, SESSION_EVENTS].filter((s) => !db.objectStoreNames.contains(s));
        if (missing.length > 0) {
          db.close();
          throw new Error(`the database (version ${db.version}) has no "${missing.join('", "')}" store; clear this site's data to start afresh`);
        }
        return db;
      });
      this.conn = opening;
      // A failed open is not cached: the next call tries again (the other tab may have closed).
      opening.catch(() => {
        if (this.conn === opening) this.conn = null;
      });
    }
    return this.conn;
  }

  /** A read (or a single put); failures become results. */
  private async run<T>(what: string, op: (db: IDBPDatabase) => Promise<SessionResult<T>>): Promise<SessionResult<T>> {
    try {
      return await op(await this.db());
    } catch (err) {
      if ((err as { name?: string } | null)?.name === 'InvalidStateError') this.conn = null;
      return { ok: false, error: storeErrorOf(what, err) };
    }
  }

  /** One readwrite transaction over both stores: it commits whole or not at all. */
  private async write<T>(what: string, op: (tx: Tx) => Promise<T>): Promise<SessionResult<T>> {
    let db: IDBPDatabase;
    try {
      db = await this.db();
    } catch (err) {
      return { ok: false, error: storeErrorOf(what, err) };
    }
    let tx: Tx | undefined;
    try {
      tx = db.transaction([SESSIONS, SESSION_EVENTS], 'readwrite') as unknown as Tx;
      const value = await op(tx);
      await tx.done;
      return ok(value);
    } catch (err) {
      if (tx) {
        try {
          tx.abort();
        } catch {
          // Already finished or aborted.
        }
        tx.done.catch(() => undefined);
      }
      if (err instanceof Refused) return { ok: false, error: err.error };
      if ((err as { name?: string } | null)?.name === 'InvalidStateError') this.conn = null;
      const txError = tx?.error ? { inner: tx.error } : {};
      return { ok: false, error: storeErrorOf(what, Object.assign({}, { name: (err as Error)?.name, message: (err as Error)?.message }, txError)) };
    }
  }
}
