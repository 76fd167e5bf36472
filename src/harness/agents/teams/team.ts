/**
 * A team: the lead's long-lived teammates, their mailboxes, the open protocol requests and the
 * scheduler that drives them. A teammate is an `agentLoop` per wake-up over one persistent
 * history (its own messages, system prompt, tool pool, permission context and read state); between
 * wake-ups it is idle, and the `Team` keeps it for the lead's later turns.
 *
 * This file is the team's state and its public door; each job lives in its own file (see the
 * folder's README): `spawn.ts`, `wake.ts`, `scheduler.ts` (`pump`), `protocol.ts` (send, read,
 * the request rules), `wire.ts` / `lead-side.ts` / `teammate-side.ts` (notes between tabs,
 * presence and heartbeats), `going-away.ts`, `workspace-offers.ts`. Those files share the fields
 * below that are not marked readonly-public: they are the team's own, not for outside callers.
 */
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import { releaseGone, scheduleGone } from './going-away.ts';
import { answerLostBeat, refuseLateJoin } from './lead-side.ts';
import { DEFAULT_LOCK_RETRY_MS, DEFAULT_LOCK_STALE_MS, type LockOptions } from './lock.ts';
import { LEAD, type MessageType, type TeamMessage } from './message.ts';
import { DEFAULT_JOIN_TIMEOUT_MS, DEFAULT_MISSED_BEATS, Presence } from './presence.ts';
import { readMail, sendMessage } from './protocol.ts';
import { pumpTeam } from './scheduler.ts';
import { spawnTeammate, type SpawnResult } from './spawn.ts';
import { canMove, isFinal, type TeammateState } from './state.ts';
import { SenderCheck, speakerName, type SenderOptions } from './sender.ts';
import { TabLink } from './tab-link.ts';
import { askToJoin } from './teammate-side.ts';
import { DEFAULT_RELEASE_AFTER_MS, type OpenRequest, type PendingRelease, type Sink, type SpawnRequest, type Teammate, type TeamRuntime } from './team-types.ts';
import type { TeamTransport } from './transport.ts';
import { stepOne } from './wake.ts';
import { closeWorkspace } from './workspace-offers.ts';
import type { WorkspaceOutcome } from './workspace.ts';

export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_TEAMMATE_MAX_TURNS, DEFAULT_RELEASE_AFTER_MS } from './team-types.ts';
export type { TeamRuntime, OpenRequest, Teammate, Sink, SpawnRequest } from './team-types.ts';

export class Team {
  readonly members = new Map<string, Teammate>();
  readonly requests = new Map<string, OpenRequest>();
  /** Lock waits and messages so far (the bench reads them). */
  readonly stats = { lockWaits: 0, messages: 0, recoveredLocks: 0, claims: 0 };
  /** Gone teammates whose tasks wait for them, by name. */
  readonly releases = new Map<string, PendingRelease>();
  /** Teammate's tab: the lead's team ended (its tab closed or its run ended). */
  leadGone = false;
  /** Teammate's tab: why the lead's tab refused this tab (it joined too late, or it was lost). */
  refused?: string;
  /** The run is ending: no claims, and only teammates asked to shut down are woken. */
  ending: { asked: Set<string> } | null = null;
  /** Every copy offered back so far (the end-of-run report lists them). */
  readonly outcomes: ({ name: string } & WorkspaceOutcome)[] = [];

  // The team's own (shared by this folder's files).
  /** The wire to other tabs and the notes waiting on it. */
  readonly link = new TabLink();
  /** Lead's tab: teammates in other tabs waiting for a task (their `claim`), decided in the claim rounds. */
  readonly remoteClaims = new Set<string>();
  /** Ids of messages another tab says a member read (that tab's cursor is the truth for it). */
  readonly readElsewhere = new Map<string, Set<string>>();
  /** Teammate's tab: the name this tab asked to join as, until the lead's tab welcomes it. */
  joining?: string;
  /** Lead's tab: when each other tab was last heard from, and how often it beats. */
  readonly presence: Presence;
  /** Who may say what on the wire (`sender.ts`), once a transport is attached. */
  sender?: SenderCheck;
  /** Tabs already told they are refused (a lost tab's beats are answered once). */
  readonly refusedTabs = new Set<string>();
  private readonly seqOf = new Map<string, number>();
  /** Team-local numbering (`req-1`, `msg-1`): the same in every replay, whatever the run's IdGen. */
  private readonly counters = { req: 0, msg: 0 };

  constructor(readonly runtime: TeamRuntime) {
    this.presence = new Presence(runtime.missedBeats ?? DEFAULT_MISSED_BEATS);
  }

  nextId(kind: 'req' | 'msg'): string {
    return `${kind}-${this.link.wire ? `${this.link.wire.tab}-` : ''}${++this.counters[kind]}`;
  }

  get workdir(): string {
    return this.runtime.sandbox.workdir;
  }

  get joinTimeoutMs(): number {
    return this.runtime.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS;
  }

  /** This tab's id on the wire, when connected. */
  get tab(): string | undefined {
    return this.link.tab;
  }

  /** Connects this team to teammates in other tabs (ids get the tab as a prefix, so they stay unique). */
  attachTransport(transport: TeamTransport, tab: string, opts: SenderOptions = {}): void {
    const sender = new SenderCheck(
      {
        hostsLead: this.runtime.hostsLead !== false,
        tabOf: (name) => this.members.get(name)?.remoteTab,
        isLocal: (name) => this.isLocal(name),
      },
      opts,
    );
    this.sender = sender;
    this.link.attach(transport, tab, (w) => {
      // A note without the team's key is never acted on, nor counted as a sign of life.
      const verdict = sender.checkKey(w);
      if (!verdict.ok) {
        // Beats carry no one's words; a forged stream of them is refused without a row each.
        if (w.kind !== 'beat') this.link.drop({ tab: typeof w.tab === 'string' ? w.tab : '?', kind: w.kind, ...(speakerName(w) ? { name: speakerName(w) } : {}), why: verdict.why });
        return false;
      }
      // Any note proves its tab alive, counted when it arrives (not when the team is next pumped).
      this.presence.note(w.tab, this.runtime.clock.now(), w.kind === 'beat' ? w.everyMs : undefined);
      if (w.kind === 'beat') {
        answerLostBeat(this, w.tab);
        return false;
      }
      // A join that comes too late is refused at once: the lead may never be pumped again.
      return !(w.kind === 'hello' && w.join && refuseLateJoin(this, w.tab, w.name));
    }, opts.key);
    if (this.runtime.heartbeatMs !== undefined && this.runtime.heartbeatMs > 0) this.link.beat(this.runtime.heartbeatMs, this.runtime.clock);
  }

  /** Says goodbye for every teammate of this tab and disconnects (a tab's `pagehide`). */
  detachTransport(): void {
    if (!this.link.wire) return;
    for (const m of this.members.values()) if (!m.remoteTab && !isFinal(m.state)) this.link.post({ kind: 'bye', name: m.name });
    // The lead's tab leaving ends the team for the teammates in other tabs.
    if (this.runtime.hostsLead !== false) this.link.post({ kind: 'bye', name: LEAD });
    this.link.detach();
  }

  /** Resolves when a note from another tab is waiting (or `signal` fires). */
  waitForWire(signal?: AbortSignal): Promise<void> {
    return this.link.waitForWire(signal);
  }

  /**
   * Teammate's tab: asks the lead's tab to be `name`, a teammate the lead spawned to run in
   * another tab. The answer (`welcome`) arrives while this team is pumped; until then nothing runs.
   */
  join(name: string): void {
    askToJoin(this, name);
  }

  /** Whether this tab still waits for the lead's tab to welcome it. */
  get awaitingWelcome(): boolean {
    return this.joining !== undefined;
  }

  /** Whether `name`'s mailbox is this tab's to act on (the lead here, or a teammate whose loop runs here). */
  isLocal(name: string): boolean {
    if (name === LEAD) return this.runtime.hostsLead !== false;
    const m = this.members.get(name);
    return m !== undefined && m.remoteTab === undefined;
  }

  /** Some teammate runs in another tab and may still send notes. */
  remoteAlive(): boolean {
    return [...this.members.values()].some((m) => m.remoteTab !== undefined && !isFinal(m.state));
  }

  lockOptions(holder: string, sink?: Sink, agentId?: string): LockOptions {
    return {
      clock: this.runtime.clock,
      holder,
      staleMs: this.runtime.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
      retryMs: this.runtime.lockRetryMs ?? DEFAULT_LOCK_RETRY_MS,
      uniq: () => this.runtime.ids.next('stale'),
      // A stop (the run's, or a teammate's own) ends a lock wait too.
      signal: this.members.get(holder)?.abort.signal ?? this.runtime.signal,
      onRecovered: async (info) => {
        this.stats.recoveredLocks++;
        await sink?.(this.stampFor(agentId, { type: 'mailbox.lock_recovered', ...info }));
      },
    };
  }

  /** Who an agent id is in the team (`main` is the lead). */
  nameOf(agentId: string): string {
    if (agentId === 'main') return LEAD;
    for (const m of this.members.values()) if (m.agentId === agentId) return m.name;
    return agentId;
  }

  isMember(name: string): boolean {
    return name === LEAD || this.members.has(name);
  }

  /** An event of `agentId` made outside its loop (the scheduler's): stamped in that agent's own sequence. */
  stampFor(agentId: string | undefined, body: TraceEventBody): TraceEvent | TraceEventBody {
    if (!agentId || agentId === 'main') return body;
    const m = [...this.members.values()].find((x) => x.agentId === agentId);
    const seq = m ? ++m.seq : (this.seqOf.set(agentId, (this.seqOf.get(agentId) ?? 0) + 1), this.seqOf.get(agentId)!);
    return { ...body, seq, ts: this.runtime.clock.now(), agentId, turn: 0 } as TraceEvent;
  }

  /** The membership state machine: `m` moves to `to` when `state.ts` allows it, and every tab hears it. */
  async move(m: Teammate, to: TeammateState, why: string, sink: Sink): Promise<void> {
    if (m.state === to || !canMove(m.state, to)) return;
    const from = m.state;
    m.state = to;
    m.lastWhy = why;
    if (to !== 'working' && to !== 'waiting') delete m.taskId;
    await sink(this.stampFor(m.agentId, { type: 'agent.state', name: m.name, from, to, why, ...(m.taskId ? { taskId: m.taskId } : {}) }));
    if (!m.remoteTab) this.link.post({ kind: 'state', name: m.name, to, why });
    // Finished (for now, or for good): its isolated copy is offered back.
    // A teammate in another tab keeps its copy here until it is final (its tab may offer more).
    if (((to === 'done' && m.remoteTab === undefined) || isFinal(to)) && m.workspace) await closeWorkspace(this, m, sink);
  }

  spawn(req: SpawnRequest, sink: Sink, how: { welcomed?: boolean } = {}): Promise<SpawnResult> {
    return spawnTeammate(this, req, sink, how);
  }

  /**
   * Sends one message through the protocol's rules; a refusal is a sentence for the model.
   * `senderAgentId` stamps the events when the sender is not the agent whose stream `sink` is.
   */
  send(
    msg: { from: string; to: string; type: MessageType; body: string; requestId?: string; approve?: boolean },
    sink: Sink,
    senderAgentId?: string,
  ): Promise<{ ok: true; message: TeamMessage } | { ok: false; message: string }> {
    return sendMessage(this, msg, sink, senderAgentId);
  }

  /** Takes an agent's unread mail (cursor moves) and reports it. */
  read(name: string, sink: Sink, agentId?: string): Promise<TeamMessage[]> {
    return readMail(this, name, sink, agentId);
  }

  /**
   * Drives the team until `until()` holds (checked between rounds) or nothing can move: every
   * teammate idle, waiting, done or shut down, no mail, no claimable task and no open request.
   */
  pump(sink: Sink, until: () => Promise<boolean>, signal?: AbortSignal): Promise<'until' | 'quiet' | 'aborted'> {
    return pumpTeam(this, sink, until, signal);
  }

  /**
   * Stops every teammate now, work in flight or not: each loop is aborted and drained, so it
   * closes its transcript (every tool_use answered) and its last events reach `sink`.
   */
  async stop(sink: Sink, why = 'the team was stopped'): Promise<void> {
    for (const m of this.members.values()) {
      if (isFinal(m.state)) continue;
      // Spawned for another tab that never joined: nobody ran it.
      if (m.remoteTab === '') {
        await this.move(m, 'gone', `${why}; no tab joined as ${m.name}`, sink);
        continue;
      }
      m.abort.abort();
      while (m.loop) await stepOne(this, m, sink);
      await this.move(m, 'shut_down', why, sink);
    }
  }

  /** The lead's own task tools changed the board here: the teammates' tabs write the same task (their board stays current between claims). */
  shareLeadTask(e: TraceEvent): void {
    if (!this.link.wire || this.runtime.hostsLead === false || e.agentId !== 'main') return;
    if (e.type !== 'task.created' && e.type !== 'task.updated') return;
    if (![...this.members.values()].some((m) => m.remoteTab)) return;
    this.link.post({ kind: 'tasks', name: LEAD, tasks: [e.task], changes: e.type === 'task.updated' ? e.changes : ['created'] });
  }

  /** Tells the teammates in other tabs that the lead's team has ended (they stop theirs); the channel stays open. */
  announceEnd(): void {
    if (this.runtime.hostsLead !== false) this.link.post({ kind: 'bye', name: LEAD });
  }

  /**
   * A teammate went away (its tab closed, its transport lost): it is `gone`, its loop is stopped
   * (transcript closed), and after `afterMs` on the Clock its in-progress tasks return to the board.
   * Called directly it waits for the release; a `bye` arriving while the team is pumped schedules
   * it instead (`releases`), so the others keep moving meanwhile.
   */
  async markGone(name: string, sink: Sink, why = 'its tab closed', afterMs = this.runtime.releaseAfterMs ?? DEFAULT_RELEASE_AFTER_MS): Promise<string[]> {
    const m = this.members.get(name);
    if (!m || isFinal(m.state)) return [];
    const pending = await scheduleGone(this, m, sink, why, afterMs);
    await this.runtime.clock.sleep(afterMs, this.runtime.signal);
    return this.release(pending, sink);
  }

  /** A gone teammate's in-progress tasks go back to the board (`task.released`). */
  release(r: PendingRelease, sink: Sink, why = r.why): Promise<string[]> {
    return releaseGone(this, r, sink, why);
  }

  summary(): string {
    if (this.members.size === 0) return 'No teammates yet.';
    return [...this.members.values()].map((m) => `${m.name}: ${m.state}${m.taskId ? ` (task #${m.taskId})` : ''}`).join(', ');
  }
}

