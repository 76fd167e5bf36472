/**
 * Sessions in the browser: every run of the page is recorded in the IndexedDB session store as it
 * happens, and a stored session can be opened again (after a reload, from the sessions panel),
 * forked at any event, exported and imported.
 *
 * How it hooks into the run controller (which knows nothing of sessions):
 * - `ctl.wrapRun` wraps each run's generator with `persistRun`: a run that starts a conversation
 *   creates a session first; a follow-up continues the current one. Events are written in batches
 *   as they are pulled, with sandbox snapshots, so a reload loses at most the event in flight.
 * - `ctl.onReset` ends the current session (a reset starts a new conversation).
 * - Opening a session resets the controller, restores the sandbox files of the log's latest
 *   snapshot and hands the replayed log to `ctl.restore`, so every panel renders it exactly as
 *   it rendered live, and a follow-up continues it.
 *
 * Storage failures never touch the conversation on screen: the writer keeps unwritten events in
 * memory and the banner offers to retry. One tab writes a session at a time (a Web Lock); another
 * tab opening it is read-only and says so, and hears about new events on a BroadcastChannel.
 */
import { realClock } from '../../harness/clock.ts';
import { emptyContextState } from '../../harness/context/index.ts';
import type { RunResult } from '../../harness/index.ts';
import type { SessionInfo, SessionResult, SessionStore, SessionStoreError, SessionUsage } from '../../harness/ports.ts';
import {
  SessionLogWriter,
  SnapshotTracker,
  persistRun,
  persistEvent,
  replaySession,
  restoreSnapshot,
  snapshotAt,
  traceEventsOf,
  type SessionLogEvent,
} from '../../harness/session/index.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { logSeqOfEvent, memoryTextOf, resultOfReplay } from '../sessions/log-position.ts';
import { acquireSessionLock, type SessionLock } from '../sessions/session-lock.ts';
import { forkTitle, sessionTitle } from '../sessions/session-tree.ts';
import type { FilesAt, RunController, RunWrapper } from './run-controller.svelte.ts';
import type { ScenarioOrigin } from './trust-gate.svelte.ts';
import { openedNoticeOf, type OpenedNotice } from './opened-notice.ts';
import { SessionChannel, type SessionBroadcast } from './session-channel.ts';
import { exportSession, importSession } from './session-transfer.ts';
import { importedWorkbench, isImportedLog, latestWorkbench, restoredWorkbenchText, workbenchKey, workbenchMarker, type Workbench } from '../sessions/workbench-record.ts';
import { rawText, type Quarantine } from '../../storage/quarantine.ts';

export type { OpenedNotice } from './opened-notice.ts';

/** localStorage key of the session that was open when the page went away. */
export const LAST_SESSION_KEY = 'hp.session.open';

export type SessionManagerOptions = {
  /** The library entry of a scenario id (to open a session with its scenario). */
  findScenario: (id: string) => { scenario: Scenario; origin: ScenarioOrigin; v1?: unknown } | undefined;
  /** Strings an export must never contain (the API key in use). */
  secrets: () => string[];
  /** Where a damaged workbench record is reported (with its raw text); default: nowhere. */
  quarantine?: Quarantine;
  /** Where "the open session" survives a reload; default localStorage. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
};

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class SessionManager {
  /** Every stored session, most recently updated first. */
  sessions = $state.raw<SessionInfo[]>([]);
  usage = $state.raw<SessionUsage | null>(null);
  /** The session the panels show and new runs are written to. */
  current = $state.raw<SessionInfo | null>(null);
  /** Another tab holds the session: it is shown, never written. */
  readOnly = $state(false);
  /** A storage failure the person should know about (the banner). */
  error = $state<string | null>(null);
  /** Unwritten events kept in memory after a failed write. */
  pending = $state(0);
  /** Said once after opening a session (resume or fork). */
  opened = $state.raw<OpenedNotice | null>(null);
  /** The last import's problem, with its line number. */
  importError = $state<string | null>(null);
  /** Listing or opening is in progress. */
  working = $state(false);
  /** What a click during the restore asked for (in words), done as soon as the session is back. */
  queued = $state<string | null>(null);
  private queuedAction: (() => void) | null = null;

  private writer: SessionLogWriter | null = null;
  private tracker: SnapshotTracker | null = null;
  private lock: SessionLock | null = null;
  /** True while `open` resets the controller itself (its reset must not end the new session). */
  private opening = false;
  private readonly channel: SessionChannel;
  /** Loads for a read-only tab may finish out of order: only the latest is shown. */
  private follow = 0;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  private readonly storage: SessionManagerOptions['storage'];
  /** The current session's log as last loaded; stale once the session's `eventCount` moves. */
  private logCache: { id: string; eventCount: number; log: SessionLogEvent[] } | null = null;
  /** The workbench the current session's log holds now (its last record, or the library's version). */
  private recordedWorkbench: string | null = null;

  constructor(
    private readonly ctl: RunController,
    private readonly store: SessionStore,
    private readonly opts: SessionManagerOptions,
  ) {
    this.storage = opts.storage === undefined ? (globalThis.localStorage ?? null) : opts.storage;
    ctl.wrapRun = this.wrap;
    ctl.filesAt = (count) => this.filesAt(count);
    ctl.sessionIdOf = () => this.current?.id;
    ctl.onReset = () => {
      if (!this.opening) this.close({ forget: true });
    };
    ctl.onUserEvent = (e) => this.recordUserEvent(e);
    ctl.onScenarioEdited = () => this.recordWorkbench();
    this.channel = new SessionChannel((msg) => void this.heard(msg));
  }

  /**
   * The sandbox files when the `count`-th event (1-based) of the panels happened: the fold of the
   * log's snapshots up to it. Events still buffered are written first, so a cursor on the newest
   * events finds them. Why not, in words, when the session is not saved or has no snapshot there.
   */
  async filesAt(count: number): Promise<FilesAt> {
    const cur = this.current;
    if (!cur) return { unavailable: 'this conversation is not saved (session storage is unavailable), so its earlier files are unknown' };
    let log = await this.currentLog(cur.id);
    let seq = log.ok ? logSeqOfEvent(log.value, count - 1) : null;
    if (log.ok && seq === null) {
      await this.flush();
      log = await this.currentLog(cur.id);
      seq = log.ok ? logSeqOfEvent(log.value, count - 1) : null;
    }
    if (!log.ok) return { unavailable: `the session log could not be read (${log.error.message})` };
    if (seq === null) return { unavailable: `event ${count} is not saved yet (${this.pending} events wait to be saved)` };
    const snapshot = snapshotAt(log.value, seq);
    return snapshot ? { snapshot } : { unavailable: `the session log has no snapshot of the files before event ${count}` };
  }

  /** The log of session `id`, loaded once per `eventCount` (written events invalidate it). */
  private async currentLog(id: string): Promise<SessionResult<SessionLogEvent[]>> {
    const count = this.current?.id === id ? this.current.eventCount : -1;
    const hit = this.logCache;
    if (hit && hit.id === id && hit.eventCount === count) return { ok: true, value: hit.log };
    const log = await this.store.load(id);
    if (log.ok && this.current?.id === id) this.logCache = { id, eventCount: log.value.length, log: log.value };
    return log;
  }

  /** Lists the sessions and, when asked, reopens the one that was open before the reload. */
  async init(opts: { resume: boolean }): Promise<void> {
    const last = opts.resume ? this.storage?.getItem(LAST_SESSION_KEY) : null;
    // The reload race: until the last session is back on screen, nothing starts (the page says so).
    if (last) this.ctl.restoring = true;
    try {
      await this.refresh();
      if (!last) return;
      if (!this.sessions.some((s) => s.id === last)) {
        this.storage?.removeItem(LAST_SESSION_KEY);
        return;
      }
      await this.open(last, 'resume');
    } finally {
      this.ctl.restoring = false;
      this.runQueued();
    }
  }

  /**
   * Does `action` now, or, while the last session is being restored, once it is on screen: a click
   * then (a lesson opened from the guide or the Course tab) is kept, not dropped, and the banner
   * says what waits. A later click replaces an earlier one: the person's latest choice wins.
   */
  afterRestore(what: string, action: () => void): void {
    if (!this.ctl.restoring) return action();
    this.queued = what;
    this.queuedAction = action;
  }

  private runQueued(): void {
    const action = this.queuedAction;
    this.queuedAction = null;
    this.queued = null;
    action?.();
  }

  /** Re-reads the list and usage; calls during a refresh coalesce into one more (another tab's writes come in bursts). */
  async refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const [list, usage] = await Promise.all([this.store.list(), this.store.usage()]);
        if (!list.ok) {
          this.fail(list.error);
          continue;
        }
        this.sessions = list.value;
        if (usage.ok) this.usage = usage.value;
        if (this.current) this.current = list.value.find((s) => s.id === this.current!.id) ?? this.current;
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** Writes what is buffered (page hide, "Retry saving"). */
  async flush(): Promise<void> {
    const w = this.writer;
    if (!w) return;
    const r = await w.flush();
    this.pending = w.pending;
    if (r.ok && this.error && !w.lastError) this.error = null;
  }

  /**
   * Opens a stored session in the panels: replays its log, restores the sandbox files of its
   * latest snapshot, and leaves it ready for a follow-up (`sessionStart` resume or fork). When
   * another tab writes it, it opens read-only.
   */
  async open(id: string, mode: 'resume' | 'fork' = 'resume'): Promise<boolean> {
    this.working = true;
    try {
      await this.flush();
      const [info, log] = await Promise.all([this.store.get(id), this.store.load(id)]);
      if (!info.ok) return this.fail(info.error), false;
      if (!log.ok) return this.fail(log.error), false;
      this.close({ forget: false });
      const lock = await acquireSessionLock(id);
      const library = info.value.scenarioId ? this.opts.findScenario(info.value.scenarioId) : undefined;
      // The workbench the session last ran with (its edited tools, golden cases, settings) wins over the library's.
      const saved = latestWorkbench(log.value);
      if (saved.kind === 'damaged') {
        this.opts.quarantine?.add({ store: 'session_events', key: `${id}/${saved.seq}`, sessionId: id, problem: restoredWorkbenchText(saved)!, raw: rawText(saved.raw) });
      }
      const restored =
        saved.kind === 'ok'
          ? { scenario: saved.workbench.scenario, origin: saved.workbench.origin, v1: saved.workbench.origin === 'builtin' && library?.origin === 'builtin' ? library.v1 : saved.workbench.scenario }
          : library;
      const snap = snapshotAt(log.value);
      // A session imported from a file is outside content, its sandbox files too: they join the
      // document the trust question shows and keys, under the import's own origin, before anything acts.
      const entry = isImportedLog(log.value) ? importedEntry(restored?.scenario ?? this.ctl.scenario, snap?.files ?? {}) : restored;
      this.opening = true;
      try {
        await (entry ? this.ctl.reset(entry.scenario, { origin: entry.origin, document: entry.v1 }) : this.ctl.reset());
      } finally {
        this.opening = false;
      }
      const replay = replaySession(log.value);
      const sandbox = await this.ctl.whenSandbox();
      if (sandbox && snap) await restoreSnapshot(sandbox.fs, sandbox.workdir, snap);
      const memory = memoryTextOf(log.value);
      this.ctl.restore({
        events: traceEventsOf(log.value),
        result: resultOfReplay(replay, emptyContextState),
        sessionStart: mode,
        readOnly: lock === null,
        ...(memory !== undefined ? { memory } : {}),
      });
      this.lock = lock;
      this.readOnly = lock === null;
      this.tracker = new SnapshotTracker(snap);
      this.writer = lock ? this.newWriter(id) : null;
      this.recordedWorkbench = entry ? workbenchKey(entry) : null;
      this.current = info.value;
      if (lock) this.storage?.setItem(LAST_SESSION_KEY, id);
      this.opened = openedNoticeOf({
        mode,
        title: info.value.title,
        replay,
        missingScenarioId: info.value.scenarioId && !entry ? info.value.scenarioId : null,
        currentTitle: this.ctl.scenario.title,
        workbench: restoredWorkbenchText(saved),
      });
      return true;
    } catch (err) {
      this.error = `Opening the session failed: ${errText(err)}.`;
      return false;
    } finally {
      this.working = false;
    }
  }

  /**
   * "Fork here": a new session whose log is the current one up to the event at `eventIndex`
   * (an index into the events the panels show), opened with that moment's files. Rewind is a fork
   * you continue.
   */
  async forkAt(eventIndex: number): Promise<boolean> {
    const cur = this.current;
    if (!cur) {
      this.error = 'This conversation is not saved (the session store is unavailable), so it cannot be forked.';
      return false;
    }
    await this.flush();
    const log = await this.store.load(cur.id);
    if (!log.ok) return this.fail(log.error), false;
    const seq = logSeqOfEvent(log.value, eventIndex);
    if (seq === null) {
      this.error = `Event ${eventIndex + 1} is not in the saved log yet (${this.pending} events still wait to be saved). Retry saving, then fork again.`;
      return false;
    }
    const fork = await this.store.fork(cur.id, seq, forkTitle(cur.title, seq));
    if (!fork.ok) return this.fail(fork.error), false;
    this.broadcast({ type: 'list' });
    const ok = await this.open(fork.value.id, 'fork');
    await this.refresh();
    return ok;
  }

  async rename(id: string, title: string): Promise<boolean> {
    const r = await this.store.rename(id, title);
    if (!r.ok) return this.fail(r.error), false;
    if (this.current?.id === id) this.current = r.value;
    this.broadcast({ type: 'list' });
    await this.refresh();
    return true;
  }

  async remove(id: string): Promise<boolean> {
    // Deleting the open session starts afresh; its lock goes with it.
    if (this.current?.id === id) await this.ctl.reset();
    const r = await this.store.delete(id);
    if (!r.ok) return this.fail(r.error), false;
    this.broadcast({ type: 'list' });
    await this.refresh();
    return true;
  }

  /** The session as JSONL (the API key redacted), or null with `error` set. */
  async exportJsonl(id: string): Promise<string | null> {
    if (this.current?.id === id) await this.flush();
    const out = await exportSession(this.store, id, this.opts.secrets());
    if (out.ok) return out.value;
    this.error = out.error;
    return null;
  }

  /** Stores a JSONL file as a new session; a bad line is reported by its number. */
  async importJsonl(text: string, fileName: string): Promise<SessionInfo | null> {
    this.importError = null;
    const imported = await importSession(this.store, text, fileName, this.workbenchNow());
    if (!imported.ok) {
      if (imported.storage) this.error = imported.error;
      else this.importError = imported.error;
      return null;
    }
    this.broadcast({ type: 'list' });
    await this.refresh();
    return imported.value;
  }

  /** Stops writing the current session (and lets another tab take it). */
  private close(opts: { forget: boolean }): void {
    const writer = this.writer;
    if (writer) void writer.flush();
    this.lock?.release();
    this.lock = null;
    this.writer = null;
    this.tracker = null;
    this.current = null;
    this.logCache = null;
    this.recordedWorkbench = null;
    this.readOnly = false;
    this.opened = null;
    this.pending = 0;
    if (opts.forget) this.storage?.removeItem(LAST_SESSION_KEY);
  }

  private newWriter(id: string): SessionLogWriter {
    const writer = new SessionLogWriter(this.store, id, {
      // The key is never written into the log, even where it appears in the conversation.
      secrets: this.opts.secrets,
      onError: (e, pending) => {
        this.pending = pending;
        this.error = `${e.message} ${pending} event${pending === 1 ? ' is' : 's are'} kept in this page until saving works again.`;
      },
      onWritten: ({ eventCount, bytes }) => {
        this.logCache = null;
        if (this.current?.id === id) this.current = { ...this.current, eventCount, bytes, updatedAt: realClock.now() };
        this.pending = writer.pending;
        this.broadcast({ type: 'written', id });
      },
    });
    return writer;
  }

  /** workbench: the person's own change of the live sandbox goes into the log between runs' events, with its snapshot. */
  private async recordUserEvent(event: TraceEvent): Promise<void> {
    const writer = this.writer;
    const tracker = this.tracker;
    const sandbox = this.ctl.sandbox;
    if (!writer || !tracker || this.readOnly || !sandbox) return;
    await persistEvent(event, {
      writer,
      clock: realClock,
      snapshots: { fs: sandbox.fs, root: sandbox.workdir, tracker },
      onSnapshotError: (m) => (this.error = m),
    });
  }

  /** The workbench in the page now. */
  private workbenchNow(): Workbench {
    return { scenario: this.ctl.scenario, origin: this.ctl.trust.origin };
  }

  /**
   * Writes a `session.workbench` record when the page's workbench differs from the one the log
   * holds (an edit between runs, or the first run of an edited scenario), so a reload or a fork
   * restores it.
   */
  private recordWorkbench(): void {
    const writer = this.writer;
    if (!writer || this.readOnly) return;
    const now = this.workbenchNow();
    const key = workbenchKey(now);
    if (key === this.recordedWorkbench) return;
    writer.append(workbenchMarker(now, realClock.now()));
    this.recordedWorkbench = key;
    // Written at once, not with the next run's events: a tool or golden case kept between runs must
    // survive a reload right after it (page hide flushes too, but may be cut short).
    void this.flush();
  }

  /** Wraps each run: a new conversation gets a new session; a follow-up goes to the current one. */
  private wrap: RunWrapper = (run, info) => this.persisted(run, info);

  private async *persisted(
    run: AsyncGenerator<TraceEvent, RunResult>,
    info: Parameters<RunWrapper>[1],
  ): AsyncGenerator<TraceEvent, RunResult> {
    if (info.newConversation || !this.current) await this.begin(info.prompt);
    const writer = this.writer;
    const tracker = this.tracker;
    if (!writer || !tracker || this.readOnly) return yield* run;
    // The person is continuing: what the resume said has been read.
    this.opened = null;
    this.recordWorkbench();
    return yield* persistRun(run, {
      writer,
      clock: realClock,
      snapshots: { fs: info.sandbox.fs, root: info.sandbox.workdir, tracker },
      onSnapshotError: (m) => (this.error = m),
    });
  }

  private async begin(prompt: string): Promise<void> {
    this.close({ forget: true });
    const created = await this.store.create({ title: sessionTitle(this.ctl.scenario.title, prompt, this.opts.secrets()), scenarioId: this.ctl.scenario.id });
    if (!created.ok) {
      this.fail(created.error);
      this.error = `${this.error ?? ''} This conversation runs, but it is not saved.`.trim();
      return;
    }
    const id = created.value.id;
    this.lock = await acquireSessionLock(id);
    this.current = created.value;
    this.tracker = new SnapshotTracker();
    this.writer = this.newWriter(id);
    // A built-in as the library has it needs no record; an edited one, or one from outside (the
    // library keeps those only for this tab), gets one (persisted() writes it).
    const library = this.opts.findScenario(this.ctl.scenario.id);
    this.recordedWorkbench = library?.origin === 'builtin' ? workbenchKey({ scenario: library.scenario, origin: library.origin }) : null;
    this.storage?.setItem(LAST_SESSION_KEY, id);
    this.broadcast({ type: 'list' });
    void this.refresh();
  }

  private async heard(msg: SessionBroadcast): Promise<void> {
    await this.refresh();
    // A read-only tab follows the writer's new events.
    if (msg.type !== 'written' || !this.readOnly || this.current?.id !== msg.id || this.ctl.busy) return;
    const ticket = ++this.follow;
    const log = await this.store.load(msg.id);
    if (!log.ok || ticket !== this.follow || this.current?.id !== msg.id || !this.readOnly) return;
    this.showReadOnly(log.value);
  }

  private showReadOnly(log: SessionLogEvent[]): void {
    this.ctl.restore({
      events: traceEventsOf(log),
      result: resultOfReplay(replaySession(log), emptyContextState),
      sessionStart: 'resume',
      readOnly: true,
    });
  }

  private broadcast(msg: SessionBroadcast): void {
    this.channel.post(msg);
  }

  private fail(e: SessionStoreError): void {
    this.error = e.message;
  }
}

/** An imported session opens as its own document: its workbench with the latest snapshot's files folded in (`importedWorkbench`). */
function importedEntry(scenario: Scenario, files: Readonly<Record<string, string>>): Workbench & { v1: Scenario } {
  const w = importedWorkbench(scenario, files);
  return { ...w, v1: w.scenario };
}
