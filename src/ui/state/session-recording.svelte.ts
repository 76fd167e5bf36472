/**
 * The session store's side of the page that needs no run controller: the list of stored sessions,
 * and the session being written now. It is built before the controller and given to it as its
 * `session` hook (`RunSessionPort`); the `SessionManager` (opening, forking, deleting: the actions
 * that reset and restore the controller) is built after the controller and shares this object.
 *
 * - `wrapRun` wraps each run's generator with `persistRun`: a run that starts a conversation
 *   creates a session first; a follow-up continues the current one. Events are written in batches
 *   as they are pulled, with sandbox snapshots, so a reload loses at most the event in flight.
 * - `runReset` ends the current session (a reset starts a new conversation), except while the
 *   session manager opens one (`whileOpening`).
 *
 * Storage failures never touch the conversation on screen: the writer keeps unwritten events in
 * memory and the banner offers to retry. One tab writes a session at a time (a Web Lock).
 */
import { realClock } from '../../harness/clock.ts';
import type { RunResult, Sandbox } from '../../harness/index.ts';
import type { SessionInfo, SessionResult, SessionStore, SessionStoreError, SessionUsage } from '../../harness/ports.ts';
import { SessionLogWriter, SnapshotTracker, persistRun, persistEvent, snapshotAt, startedEarly, type SessionLogEvent, type SnapshotDelta } from '../../harness/session/light.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { logSeqOfEvent } from '../sessions/log-position.ts';
import { acquireSessionLock, type SessionLock } from '../sessions/session-lock.ts';
import { sessionTitle } from '../sessions/session-tree.ts';
import { workbenchKey, workbenchMarker, type Workbench } from '../sessions/workbench-record.ts';
import type { OpenedNotice } from './opened-notice.ts';
import { SessionChannel, type SessionBroadcast } from './session-channel.ts';
import type { FilesAt, RunSessionPort, RunWrapper } from './run-types.ts';
import type { ScenarioOrigin } from './trust-gate.svelte.ts';

/** localStorage key of the session that was open when the page went away. */
export const LAST_SESSION_KEY = 'hp.session.open';

export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;

export type SessionRecordingOptions = {
  /** The library entry of a scenario id (a built-in as the library has it needs no workbench record). */
  findScenario: (id: string) => { scenario: Scenario; origin: ScenarioOrigin; v1?: unknown } | undefined;
  /** Strings a log or an export must never contain (the API key in use). */
  secrets: () => string[];
  /** Where "the open session" survives a reload; default localStorage. */
  storage?: SessionStorage;
};

export class SessionRecording implements RunSessionPort {
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

  /** Tabs of the app tell each other "written" and "list" (the session manager listens). */
  readonly channel = new SessionChannel();
  readonly storage: SessionStorage;
  private writer: SessionLogWriter | null = null;
  private tracker: SnapshotTracker | null = null;
  private lock: SessionLock | null = null;
  /** True while the session manager resets the controller to open a session (that reset must not end it). */
  private opening = false;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** The current session's log as last loaded; stale once the session's `eventCount` moves. */
  private logCache: { id: string; eventCount: number; log: SessionLogEvent[] } | null = null;
  /** The workbench the current session's log holds now (its last record, or the library's version). */
  private recordedWorkbench: string | null = null;

  constructor(
    readonly store: SessionStore,
    private readonly opts: SessionRecordingOptions,
  ) {
    this.storage = opts.storage === undefined ? (globalThis.localStorage ?? null) : opts.storage;
  }

  sessionId(): string | undefined {
    return this.current?.id;
  }

  runReset(): void {
    if (!this.opening) this.close({ forget: true });
  }

  /** Runs `reset` (the controller's, to open a session) without ending the session being opened. */
  async whileOpening(reset: () => Promise<void>): Promise<void> {
    this.opening = true;
    try {
      await reset();
    } finally {
      this.opening = false;
    }
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

  /** Writes to session `info` from now on (the session manager opened it); `lock` null: another tab writes it. */
  adopt(info: SessionInfo, lock: SessionLock | null, tracker: SnapshotTracker, workbench: string | null): void {
    this.lock = lock;
    this.readOnly = lock === null;
    this.tracker = tracker;
    this.writer = lock ? this.newWriter(info.id) : null;
    this.recordedWorkbench = workbench;
    this.current = info;
    if (lock) this.storage?.setItem(LAST_SESSION_KEY, info.id);
  }

  /** Stops writing the current session (and lets another tab take it). */
  close(opts: { forget: boolean }): void {
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
  async recordUserEvent(event: TraceEvent, sandbox: Sandbox | null): Promise<void> {
    const writer = this.writer;
    const tracker = this.tracker;
    if (!writer || !tracker || this.readOnly || !sandbox) return;
    await persistEvent(event, {
      writer,
      clock: realClock,
      snapshots: { fs: sandbox.fs, root: sandbox.workdir, tracker },
      onSnapshotError: (m) => (this.error = m),
    });
  }

  scenarioEdited(workbench: Workbench): void {
    this.recordWorkbench(workbench);
  }

  /**
   * Writes a `session.workbench` record when the page's workbench differs from the one the log
   * holds (an edit between runs, or the first run of an edited scenario), so a reload or a fork
   * restores it.
   */
  private recordWorkbench(now: Workbench): void {
    const writer = this.writer;
    if (!writer || this.readOnly) return;
    const key = workbenchKey(now);
    if (key === this.recordedWorkbench) return;
    writer.append(workbenchMarker(now, realClock.now()));
    this.recordedWorkbench = key;
    // Written at once, not with the next run's events: a tool or golden case kept between runs must
    // survive a reload right after it (page hide flushes too, but may be cut short).
    void this.flush();
  }

  /** Wraps each run: a new conversation gets a new session; a follow-up goes to the current one. */
  readonly wrapRun: RunWrapper = (run, info) => this.persisted(run, info);

  private async *persisted(run: AsyncGenerator<TraceEvent, RunResult>, info: Parameters<RunWrapper>[1]): AsyncGenerator<TraceEvent, RunResult> {
    let firstSnapshot: Promise<SnapshotDelta | null> | undefined;
    if (info.newConversation || !this.current) {
      // A new session's record (IndexedDB), the files' first snapshot (the sandbox's) and the run's first
      // event go together: the page's run is the agent loop, which writes no file before its first event
      // (`run.start`). One after another they were ~30 ms of a cold page's first Step. A follow-up keeps
      // its session's tracker, so its snapshots stay one after another (`persistRun`).
      const tracker = new SnapshotTracker();
      firstSnapshot = tracker.take(info.sandbox.fs, info.sandbox.workdir);
      run = startedEarly(run);
      await this.begin(info.prompt, info.workbench().scenario, tracker);
    }
    const writer = this.writer;
    const tracker = this.tracker;
    if (!writer || !tracker || this.readOnly) {
      firstSnapshot?.catch(() => undefined);
      return yield* run;
    }
    // The person is continuing: what the resume said has been read.
    this.opened = null;
    this.recordWorkbench(info.workbench());
    return yield* persistRun(run, {
      writer,
      clock: realClock,
      snapshots: { fs: info.sandbox.fs, root: info.sandbox.workdir, tracker },
      onSnapshotError: (m) => (this.error = m),
      ...(firstSnapshot ? { firstSnapshot } : {}),
    });
  }

  private async begin(prompt: string, scenario: Scenario, tracker: SnapshotTracker): Promise<void> {
    this.close({ forget: true });
    const created = await this.store.create({ title: sessionTitle(scenario.title, prompt, this.opts.secrets()), scenarioId: scenario.id });
    if (!created.ok) {
      this.fail(created.error);
      this.error = `${this.error ?? ''} This conversation runs, but it is not saved.`.trim();
      return;
    }
    const id = created.value.id;
    // The run's first event does not wait for the grant (a browser-process round trip, up to ~50 ms
    // while a cold page loads): the lock is asked for now, before any other tab can know this id —
    // the list broadcast that tells them waits for the grant — so Web Locks grant it here first.
    const locking = acquireSessionLock(id);
    this.current = created.value;
    this.tracker = tracker;
    this.writer = this.newWriter(id);
    // A built-in as the library has it needs no record; an edited one, or one from outside (the
    // library keeps those only for this tab), gets one (persisted() writes it).
    const library = this.opts.findScenario(scenario.id);
    this.recordedWorkbench = library?.origin === 'builtin' ? workbenchKey({ scenario: library.scenario, origin: library.origin }) : null;
    this.storage?.setItem(LAST_SESSION_KEY, id);
    void locking.then((lock) => {
      // Ended (a reset, another session opened) before the grant: let it go.
      if (this.current?.id !== id) return lock?.release();
      this.lock = lock;
      this.broadcast({ type: 'list' });
    });
    void this.refresh();
  }

  broadcast(msg: SessionBroadcast): void {
    this.channel.post(msg);
  }

  fail(e: SessionStoreError): void {
    this.error = e.message;
  }
}
