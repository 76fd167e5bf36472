/**
 * Sessions in the browser: every run of the page is recorded in the IndexedDB session store as it
 * happens (`session-recording.svelte.ts`, the controller's `session` hook), and a stored session
 * can be opened again (after a reload, from the sessions panel), forked at any event, exported and
 * imported — the actions here, which reset and restore the run controller.
 *
 * Opening a session resets the controller (the recording keeps the session being opened),
 * restores the sandbox files of the log's latest snapshot and hands the replayed log to
 * `ctl.restore`, so every panel renders it exactly as it rendered live, and a follow-up continues it.
 * Another tab opening a session this tab writes is read-only and says so, and hears about new
 * events on a BroadcastChannel.
 *
 * Built after the controller (`page-state.svelte.ts`); the list, the current session and the
 * banner's state are the recording's, read through the getters below.
 */
import { documents, loadDocuments } from './documents.ts';
import { emptyContextState } from '../../harness/context/light.ts';
import type { SessionInfo, SessionStoreError } from '../../harness/ports.ts';
import { SnapshotTracker, replaySession, restoreSnapshot, snapshotAt, traceEventsOf, type SessionLogEvent } from '../../harness/session/light.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { logSeqOfEvent, memoryTextOf, resultOfReplay } from '../sessions/log-position.ts';
import { acquireSessionLock } from '../sessions/session-lock.ts';
import { forkTitle } from '../sessions/session-tree.ts';
import type { RunController } from './run-controller.svelte.ts';
import type { ScenarioOrigin } from './trust-gate.svelte.ts';
import { openedNoticeOf, type OpenedNotice } from './opened-notice.ts';
import type { SessionBroadcast } from './session-channel.ts';
import { LAST_SESSION_KEY, type SessionRecording } from './session-recording.svelte.ts';
import { importedWorkbench, isImportedLog, restoredWorkbenchText, workbenchKey, type LatestWorkbench, type Workbench } from '../sessions/workbench-record.ts';
import { rawText, type Quarantine } from '../../storage/quarantine.ts';

/**
 * The JSONL export and import (`session-transfer.ts`, with the session file format and its schemas),
 * loaded at the first export or import: the first screen does not evaluate them. A chunk that cannot
 * be loaded (the site was updated, the connection dropped) comes back as words for the banner.
 */
async function sessionTransfer(): Promise<typeof import('./session-transfer.ts') | string> {
  try {
    return await import('./session-transfer.ts');
  } catch (err) {
    return `The session import and export could not be loaded (${err instanceof Error ? err.message : String(err)}): reload the page and try again.`;
  }
}

export type { OpenedNotice } from './opened-notice.ts';
export { LAST_SESSION_KEY } from './session-recording.svelte.ts';

export type SessionManagerOptions = {
  /** The library entry of a scenario id (to open a session with its scenario). */
  findScenario: (id: string) => { scenario: Scenario; origin: ScenarioOrigin; v1?: unknown } | undefined;
  /** Strings an export must never contain (the API key in use). */
  secrets: () => string[];
  /** Where a damaged workbench record is reported (with its raw text); default: nowhere. */
  quarantine?: Quarantine;
};

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class SessionManager {
  /** The last import's problem, with its line number. */
  importError = $state<string | null>(null);
  /** Listing or opening is in progress. */
  working = $state(false);
  /** What a click during the restore asked for (in words), done as soon as the session is back. */
  queued = $state<string | null>(null);
  private queuedAction: (() => void) | null = null;
  /** Loads for a read-only tab may finish out of order: only the latest is shown. */
  private follow = 0;

  constructor(
    private readonly ctl: RunController,
    readonly recording: SessionRecording,
    private readonly opts: SessionManagerOptions,
  ) {
    recording.channel.listen((msg) => void this.heard(msg));
  }

  // The recording's state, as the panels and banners read it.
  get sessions(): SessionInfo[] { return this.recording.sessions; }
  get usage() { return this.recording.usage; }
  get current(): SessionInfo | null { return this.recording.current; }
  get readOnly(): boolean { return this.recording.readOnly; }
  get pending(): number { return this.recording.pending; }
  get error(): string | null { return this.recording.error; }
  set error(v: string | null) { this.recording.error = v; }
  get opened(): OpenedNotice | null { return this.recording.opened; }
  set opened(v: OpenedNotice | null) { this.recording.opened = v; }
  /** Writes what is buffered (page hide, "Retry saving"). */
  flush(): Promise<void> { return this.recording.flush(); }
  /** Re-reads the list and usage. */
  refresh(): Promise<void> { return this.recording.refresh(); }
  /** The sandbox files when the `count`-th event happened (see `SessionRecording.filesAt`). */
  filesAt(count: number) { return this.recording.filesAt(count); }
  private get store() { return this.recording.store; }
  private get storage() { return this.recording.storage; }

  /**
   * Lists the sessions and, when `resume()` says so, reopens the one that was open before the reload.
   * `after`: what the page loads first (the user scope, the course progress, the library: the restore
   * needs them, and `resume` may read them). The page is held from this call on, not from when they are
   * in, so a click in between is queued rather than raced (they wait on chunks and stores, which can
   * take a while); when it turns out there is nothing to resume, it is let go.
   */
  async init(opts: { resume: () => boolean; after?: Promise<unknown> }): Promise<void> {
    const last = this.storage?.getItem(LAST_SESSION_KEY);
    // The reload race: until the last session is back on screen, nothing starts (the page says so).
    if (last) this.ctl.restoring = true;
    try {
      await opts.after;
      await this.refresh();
      if (!last || !opts.resume()) return;
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
      this.recording.close({ forget: false });
      const lock = await acquireSessionLock(id);
      const library = info.value.scenarioId ? this.opts.findScenario(info.value.scenarioId) : undefined;
      // A workbench record is a scenario, validated with its schemas, yaml and RE2 (loaded on demand): a log
      // with one waits for them; the rest (most sessions: an unedited built-in writes none) restores without.
      const hasWorkbench = log.value.some((e) => e.type === 'session.workbench');
      if (hasWorkbench) await loadDocuments();
      // The workbench the session last ran with (its edited tools, golden cases, settings) wins over the library's.
      const saved: LatestWorkbench = hasWorkbench ? documents().latestWorkbench(log.value) : { kind: 'none' };
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
      await this.recording.whileOpening(() => (entry ? this.ctl.reset(entry.scenario, { origin: entry.origin, document: entry.v1 }) : this.ctl.reset()));
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
      this.recording.adopt(info.value, lock, new SnapshotTracker(snap), entry ? workbenchKey(entry) : null);
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
    if (this.current?.id === id) this.recording.current = r.value;
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
    const transfer = await sessionTransfer();
    if (typeof transfer === 'string') {
      this.error = transfer;
      return null;
    }
    const out = await transfer.exportSession(this.store, id, this.opts.secrets());
    if (out.ok) return out.value;
    this.error = out.error;
    return null;
  }

  /** Stores a JSONL file as a new session; a bad line is reported by its number. */
  async importJsonl(text: string, fileName: string): Promise<SessionInfo | null> {
    this.importError = null;
    const transfer = await sessionTransfer();
    if (typeof transfer === 'string') {
      this.importError = transfer;
      return null;
    }
    const imported = await transfer.importSession(this.store, text, fileName, this.workbenchNow());
    if (!imported.ok) {
      if (imported.storage) this.error = imported.error;
      else this.importError = imported.error;
      return null;
    }
    this.broadcast({ type: 'list' });
    await this.refresh();
    return imported.value;
  }

  /** The workbench in the page now. */
  private workbenchNow(): Workbench {
    return { scenario: this.ctl.scenario, origin: this.ctl.trust.origin };
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
    this.recording.broadcast(msg);
  }

  private fail(e: SessionStoreError): void {
    this.recording.fail(e);
  }
}

/** An imported session opens as its own document: its workbench with the latest snapshot's files folded in (`importedWorkbench`). */
function importedEntry(scenario: Scenario, files: Readonly<Record<string, string>>): Workbench & { v1: Scenario } {
  const w = importedWorkbench(scenario, files);
  return { ...w, v1: w.scenario };
}
