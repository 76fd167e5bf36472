/**
 * An in-memory `SessionStore` for Node tests and headless runs: the logs last as long as the
 * object. `maxBytes` imitates a browser quota so quota handling can be tested without a browser.
 */
import type {
  Clock,
  IdGen,
  SessionInfo,
  SessionResult,
  SessionStore,
  SessionUsage,
  StorageEstimate,
} from '../../harness/ports.ts';
import {
  checkForkPosition,
  checkTitle,
  encodeBatch,
  fail,
  forkedSessionInfo,
  newestFirst,
  newSessionInfo,
  notFound,
  ok,
  quotaMessage,
  storedTitle,
  usageOf,
  type EncodedEntry,
} from '../../harness/session/light.ts';
import type { SessionLogEvent } from '../../harness/session/light.ts';

export type MemorySessionStoreOptions = {
  clock: Clock;
  ids: IdGen;
  /** Refuse writes that would take all logs past this many bytes (a stand-in for the quota). */
  maxBytes?: number;
  /** The origin's storage estimate (the browser passes `navigator.storage.estimate`). */
  estimate?: () => Promise<StorageEstimate>;
};

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionInfo>();
  private readonly logs = new Map<string, EncodedEntry[]>();

  constructor(private readonly opts: MemorySessionStoreOptions) {}

  async create(o: { title: string; scenarioId?: string }): Promise<SessionResult<SessionInfo>> {
    const bad = checkTitle(o.title);
    if (bad) return { ok: false, error: bad };
    const info = newSessionInfo({ id: this.opts.ids.next('session'), title: o.title, scenarioId: o.scenarioId, now: this.opts.clock.now() });
    this.sessions.set(info.id, info);
    this.logs.set(info.id, []);
    return ok({ ...info });
  }

  async get(id: string): Promise<SessionResult<SessionInfo>> {
    const info = this.sessions.get(id);
    return info ? ok({ ...info }) : notFound(id);
  }

  async list(): Promise<SessionResult<SessionInfo[]>> {
    return ok([...this.sessions.values()].map((s) => ({ ...s })).sort(newestFirst));
  }

  async rename(id: string, title: string): Promise<SessionResult<SessionInfo>> {
    const info = this.sessions.get(id);
    if (!info) return notFound(id);
    const bad = checkTitle(title);
    if (bad) return { ok: false, error: bad };
    const next = { ...info, title: storedTitle(title), updatedAt: this.opts.clock.now() };
    this.sessions.set(id, next);
    return ok({ ...next });
  }

  async delete(id: string): Promise<SessionResult<void>> {
    if (!this.sessions.has(id)) return notFound(id);
    this.sessions.delete(id);
    this.logs.delete(id);
    return ok(undefined);
  }

  async append(id: string, events: readonly SessionLogEvent[]): Promise<SessionResult<SessionInfo>> {
    const info = this.sessions.get(id);
    const log = this.logs.get(id);
    if (!info || !log) return notFound(id);
    if (events.length === 0) return ok({ ...info });
    const batch = encodeBatch(events);
    if (!batch.ok) return { ok: false, error: batch.error };
    if (this.overQuota(batch.bytes)) return fail('quota', quotaMessage(`the last ${events.length} step(s)`));
    log.push(...batch.entries);
    const next = { ...info, eventCount: log.length, bytes: info.bytes + batch.bytes, updatedAt: this.opts.clock.now() };
    this.sessions.set(id, next);
    return ok({ ...next });
  }

  async load(id: string): Promise<SessionResult<SessionLogEvent[]>> {
    const log = this.logs.get(id);
    if (!log) return notFound(id);
    return ok(log.map((e) => JSON.parse(e.json) as SessionLogEvent));
  }

  async fork(id: string, atSeq: number, title: string): Promise<SessionResult<SessionInfo>> {
    const info = this.sessions.get(id);
    const log = this.logs.get(id);
    if (!info || !log) return notFound(id);
    const bad = checkTitle(title) ?? checkForkPosition(info, atSeq);
    if (bad) return { ok: false, error: bad };
    const copied = log.slice(0, atSeq);
    const bytes = copied.reduce((n, e) => n + e.bytes, 0);
    if (this.overQuota(bytes)) return fail('quota', quotaMessage('the fork'));
    const fork = forkedSessionInfo(info, { id: this.opts.ids.next('session'), title, atSeq, now: this.opts.clock.now(), eventCount: copied.length, bytes });
    this.sessions.set(fork.id, fork);
    this.logs.set(fork.id, [...copied]);
    return ok({ ...fork });
  }

  async usage(): Promise<SessionResult<SessionUsage>> {
    return usageOf(this.totalBytes(), this.opts.estimate);
  }

  private totalBytes(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.bytes;
    return n;
  }

  private overQuota(extra: number): boolean {
    return this.opts.maxBytes !== undefined && this.totalBytes() + extra > this.opts.maxBytes;
  }
}
