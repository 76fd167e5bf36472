/**
 * A team: the lead's long-lived teammates, their mailboxes, the open protocol requests and the
 * scheduler that drives them. A teammate is an `agentLoop` per wake-up over one persistent
 * history (its own messages, system prompt, tool pool, permission context and read state); between
 * wake-ups it is idle, and the `Team` keeps it for the lead's later turns.
 *
 * Teammates move only while the lead waits for them (`read_inbox`): `pump` pulls one event from
 * each working teammate in turn and forwards it into the lead's stream, waiting for the consumer
 * each time, so Step walks every agent one event at a time and a replay is deterministic.
 * Between rounds it wakes idle teammates with mail, lets idle auto-claimers race for ready tasks,
 * and when nothing can move it lets the Clock run towards the nearest request deadline.
 */
import { teammateIdleHook } from './idle-hook.ts';
import { agentLoop } from '../../loop/agent-loop.ts';
import { withUserContent } from '../../loop/history.ts';
import type { LoopDeps, LoopInput, RunResult } from '../../loop/types.ts';
import type { Message } from '../../messages.ts';
import type { Clock, IdGen, ModelClient, Sandbox } from '../../ports.ts';
import { FileState } from '../../tools/file-state.ts';
import type { AnyTool } from '../../tools/tool.ts';
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import { childHooks } from '../subagents/run-child.ts';
import type { SubagentRuntime } from '../subagents/runtime.ts';
import { taskTools } from '../tasks/tools.ts';
import { claimNextTask, releaseTasksOf } from './claim.ts';
import { DEFAULT_LOCK_RETRY_MS, DEFAULT_LOCK_STALE_MS, type LockOptions } from './lock.ts';
import { allMessages, appendMessage, inboxPath, markRead, takeUnread, unreadMessages } from './mailbox.ts';
import { readTasks } from '../tasks/store.ts';
import { applyOffer, changesAgainst, takeCopy, workingFiles, writeBoard } from './tab-files.ts';
import { isRequest, LEAD, messageLine, RESPONSE_OF, type MessageType, type TeamMessage } from './message.ts';
import { canMove, isFinal, type TeammateState } from './state.ts';
import type { TeamTransport, TeamWire } from './transport.ts';
import { DEFAULT_JOIN_TIMEOUT_MS, DEFAULT_MISSED_BEATS, Presence } from './presence.ts';
import type { TeammateIsolation, TeammateWorkspace, WorkspaceFactory, WorkspaceOutcome } from './workspace.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_TEAMMATE_MAX_TURNS = 20;
/** How long a gone teammate's claimed tasks wait for it before they return to the board. */
export const DEFAULT_RELEASE_AFTER_MS = 30_000;

export type TeamRuntime = Pick<SubagentRuntime, 'modelFor' | 'modelId' | 'maxTokens' | 'permissions' | 'prompt' | 'sessionGrants' | 'hooks' | 'summarize' | 'context'> & {
  sandbox: Sandbox;
  clock: Clock;
  ids: IdGen;
  /** Fresh base tools for one teammate (the team tools are added to them). */
  tools: () => AnyTool[];
  /** Builds teammate tools over this team (set by `teamTools`, kept here so the Team needs no import cycle). */
  teammateTools?: (team: Team, name: string) => AnyTool[];
  requestTimeoutMs?: number;
  lockStaleMs?: number;
  lockRetryMs?: number;
  maxTurns?: number;
  /** How long a gone teammate's claimed tasks wait before they return to the board. */
  releaseAfterMs?: number;
  /** How long an `in_tab` teammate waits for a tab to join as it (`presence.ts`); 0: until the run ends. */
  joinTimeoutMs?: number;
  /** Set: this tab beats every `heartbeatMs` of the Clock while it has a transport. Absent: it does not beat. */
  heartbeatMs?: number;
  /** Beats a teammate's tab may miss before the lead's tab marks it gone. */
  missedBeats?: number;
  /** False in a tab that only hosts teammates (the lead lives in another tab). Default true. */
  hostsLead?: boolean;
  /** Plugs isolated workspaces in (issue 13 §3); absent: every teammate shares the lead's sandbox. */
  workspace?: WorkspaceFactory;
  signal?: AbortSignal;
};

export type OpenRequest = { id: string; type: 'shutdown_request' | 'plan_submission'; from: string; to: string; sentAt: number; deadline: number };

export type Teammate = {
  name: string;
  agentId: string;
  state: TeammateState;
  taskId?: string;
  history: Message[];
  system: string;
  tools: AnyTool[];
  model: ModelClient;
  sandbox: Sandbox;
  files: FileState;
  autoClaim: boolean;
  isolation: TeammateIsolation;
  /** Its isolated copy while it has one (`overlay`): made at spawn, closed when it finishes, made afresh if it wakes again. */
  workspace?: TeammateWorkspace;
  /** The loop of its current wake-up, while working. */
  loop?: AsyncGenerator<TraceEvent, RunResult>;
  /** Unhooks the current wake-up's own signal from `abort` (each wake-up gets a fresh one, so listeners do not pile up). */
  unhook?: () => void;
  abort: AbortController;
  /** It approved a shutdown: it stops when this wake-up ends. */
  stopping: boolean;
  /** Its tab is gone: its loop is being drained and no state follows but `gone`. */
  leaving?: boolean;
  /** It runs in another tab: this team only mirrors its state and forwards its mail ('' until a tab joins as it). */
  remoteTab?: string;
  /** Joined across tabs: the copy of the working tree it started from (both tabs keep it: offers are diffs against it). */
  tabBase?: Record<string, string>;
  /** In the lead's tab: the paths its latest offer changed. */
  offered?: Set<string>;
  /** Spawned `in_tab` and no tab joined yet: when it stops waiting (on the Clock). */
  joinDeadline?: number;
  /** In its own tab: it asked the lead's tab for a task and waits for the answer. */
  claimAsked?: boolean;
  seq: number;
  toolUses: number;
  /** Why its state last moved (the end-of-run report quotes it). */
  lastWhy?: string;
};

export type Sink = (event: TraceEvent | TraceEventBody) => Promise<void>;

export type SpawnRequest = { name: string; prompt: string; autoClaim?: boolean; isolation?: TeammateIsolation; system?: string; inTab?: boolean };

/** A gone teammate's tasks wait for it until `deadline` (on the Clock), then return to the board. */
type PendingRelease = { name: string; agentId: string; deadline: number; afterMs: number; why: string };

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

function teammateSystem(name: string, members: string[]): string {
  return `You are ${name}, a teammate in a team led by ${LEAD}. Other members: ${members.filter((m) => m !== name).join(', ') || '(none yet)'}.
Messages reach you as user turns; answer with send_message (to: the sender). When you finish a claimed task, mark it completed with task_update. Protocol: answer a shutdown_request with a shutdown_response (approve true to stop after this turn); before risky changes send a plan_submission to ${LEAD} and wait for its plan_response. End your turn when you have nothing left to do.`;
}

function claimText(task: { id: string; subject: string; description?: string }): string {
  const desc = task.description ? `\n${task.description}` : '';
  return `You claimed task #${task.id}: ${task.subject}${desc}\nDo it, then mark it completed with task_update.`;
}

export class Team {
  readonly members = new Map<string, Teammate>();
  readonly requests = new Map<string, OpenRequest>();
  /** Lock waits and messages so far (the bench reads them). */
  readonly stats = { lockWaits: 0, messages: 0, recoveredLocks: 0, claims: 0 };
  private readonly seqOf = new Map<string, number>();
  /** Team-local numbering (`req-1`, `msg-1`): the same in every replay, whatever the run's IdGen. */
  private readonly counters = { req: 0, msg: 0 };
  private nextId(kind: 'req' | 'msg'): string {
    return `${kind}-${this.wire ? `${this.wire.tab}-` : ''}${++this.counters[kind]}`;
  }
  private wire?: { transport: TeamTransport; tab: string; off: () => void };
  private readonly inbound: TeamWire[] = [];
  private onInbound?: () => void;
  /** Lead's tab: teammates in other tabs waiting for a task (their `claim`), decided in the claim rounds. */
  private readonly remoteClaims = new Set<string>();
  /** Ids of messages another tab says a member read (that tab's cursor is the truth for it). */
  private readonly readElsewhere = new Map<string, Set<string>>();
  /** Gone teammates whose tasks wait for them, by name. */
  readonly releases = new Map<string, PendingRelease>();
  /** Teammate's tab: the name this tab asked to join as, until the lead's tab welcomes it. */
  private joining?: string;
  /** Teammate's tab: the lead's team ended (its tab closed or its run ended). */
  leadGone = false;
  /** Teammate's tab: why the lead's tab refused this tab (it joined too late, or it was lost). */
  refused?: string;
  /** Lead's tab: when each other tab was last heard from, and how often it beats. */
  private readonly presence: Presence;
  /** Tabs already told they are refused (a lost tab's beats are answered once). */
  private readonly refusedTabs = new Set<string>();
  private beating?: AbortController;
  /** The run is ending: no claims, and only teammates asked to shut down are woken. */
  ending: { asked: Set<string> } | null = null;
  /** Every copy offered back so far (the end-of-run report lists them). */
  readonly outcomes: ({ name: string } & WorkspaceOutcome)[] = [];

  /** This tab's id on the wire, when connected. */
  get tab(): string | undefined {
    return this.wire?.tab;
  }

  /** Connects this team to teammates in other tabs (ids get the tab as a prefix, so they stay unique). */
  attachTransport(transport: TeamTransport, tab: string): void {
    const off = transport.listen((w) => {
      // Any note proves its tab alive, counted when it arrives (not when the team is next pumped).
      this.presence.note(w.tab, this.runtime.clock.now(), w.kind === 'beat' ? w.everyMs : undefined);
      if (w.kind === 'beat') return this.answerLostBeat(w.tab);
      // A join that comes too late is refused at once: the lead may never be pumped again.
      if (w.kind === 'hello' && w.join && this.refuseLateJoin(w.tab, w.name)) return;
      this.inbound.push(w);
      this.onInbound?.();
    });
    this.wire = { transport, tab, off };
    if (this.runtime.heartbeatMs !== undefined && this.runtime.heartbeatMs > 0) this.beat(this.runtime.heartbeatMs);
  }

  /** Posts `beat` now and every `everyMs` of the Clock until the transport is detached (a crash stops it with the page). */
  private beat(everyMs: number): void {
    const stop = new AbortController();
    this.beating = stop;
    void (async () => {
      while (this.wire && !stop.signal.aborted) {
        this.wire.transport.post({ kind: 'beat', tab: this.wire.tab, everyMs });
        try {
          await this.runtime.clock.sleep(everyMs, stop.signal);
        } catch {
          return;
        }
      }
    })();
  }

  /** Lead's tab: a tab whose teammate was marked gone still beats (it froze and came back): it is told to stop. */
  private answerLostBeat(tab: string): void {
    if (this.runtime.hostsLead === false || this.refusedTabs.has(tab)) return;
    const m = [...this.members.values()].find((x) => x.remoteTab === tab && x.state === 'gone');
    if (m) this.refuse(tab, m.name, `the lead's tab marked ${m.name} gone: ${m.lastWhy ?? 'its tab went away'}`);
  }

  /** Lead's tab: a tab asks to be a teammate that stopped waiting for one (or whose tab was lost). */
  private refuseLateJoin(tab: string, name: string): boolean {
    const m = this.members.get(name);
    if (this.runtime.hostsLead === false || !m || !isFinal(m.state) || m.isolation !== 'overlay' || m.remoteTab === undefined) return false;
    if (!this.refusedTabs.has(tab)) this.refuse(tab, name, `${name} is ${m.state}: ${m.lastWhy ?? ''}`);
    return true;
  }

  private refuse(tab: string, name: string, why: string): void {
    this.refusedTabs.add(tab);
    this.wire?.transport.post({ kind: 'refused', tab: this.wire.tab, to: tab, name, why });
  }

  /** Says goodbye for every teammate of this tab and disconnects (a tab's `pagehide`). */
  detachTransport(): void {
    if (!this.wire) return;
    this.beating?.abort();
    for (const m of this.members.values()) if (!m.remoteTab && !isFinal(m.state)) this.wire.transport.post({ kind: 'bye', tab: this.wire.tab, name: m.name });
    // The lead's tab leaving ends the team for the teammates in other tabs.
    if (this.runtime.hostsLead !== false) this.wire.transport.post({ kind: 'bye', tab: this.wire.tab, name: LEAD });
    this.wire.off();
    this.wire.transport.close();
    delete this.wire;
  }

  /** Resolves when a note from another tab is waiting (or `signal` fires). */
  waitForWire(signal?: AbortSignal): Promise<void> {
    if (this.inbound.length > 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        delete this.onInbound;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.onInbound = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private isLocal(name: string): boolean {
    if (name === LEAD) return this.runtime.hostsLead !== false;
    const m = this.members.get(name);
    return m !== undefined && m.remoteTab === undefined;
  }

  private remoteAlive(): boolean {
    return [...this.members.values()].some((m) => m.remoteTab !== undefined && !isFinal(m.state));
  }

  /** Notes from other tabs, applied in order: mail is appended to this tab's files first. */
  private async drainWire(sink: Sink): Promise<boolean> {
    let any = false;
    while (this.inbound.length > 0) {
      const w = this.inbound.shift()!;
      any = true;
      await this.applyWire(w, sink);
    }
    return any;
  }

  private async applyWire(w: TeamWire, sink: Sink): Promise<void> {
    const fs = this.runtime.sandbox.fs;
    const leadHere = this.runtime.hostsLead !== false;
    switch (w.kind) {
      case 'message': {
        if (!this.isLocal(w.message.to)) return;
        const known = (await allMessages(fs, this.workdir, w.message.to)).some((x) => x.id === w.message.id);
        if (known) return;
        const sent = await appendMessage(fs, this.workdir, w.message, this.lockOptions(w.message.from, sink));
        this.record(w.message, false);
        const from = this.members.get(w.message.from);
        await sink(this.stampFor(from?.agentId, { type: 'mailbox.sent', message: w.message, path: sent.path.slice(this.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread }));
        return;
      }
      case 'hello': {
        const m = this.members.get(w.name);
        if (m?.remoteTab === '' && w.join && leadHere) return this.welcome(m, w.tab, sink);
        if (m || w.join) return;
        this.members.set(w.name, this.remoteMember(w.name, w.tab));
        await sink(this.stampFor(`teammate-${w.name}`, { type: 'agent.state', name: w.name, from: 'new', to: w.state, why: `it runs in another tab (${w.tab})` }));
        return;
      }
      case 'invite':
        if (this.joining === w.name) this.wire?.transport.post({ kind: 'hello', tab: this.wire.tab, name: w.name, state: 'idle', join: true });
        return;
      case 'welcome':
        if (w.to === this.wire?.tab && this.joining === w.name) await this.joined(w, sink);
        return;
      case 'state': {
        const m = this.members.get(w.name);
        if (m?.remoteTab === w.tab) await this.move(m, w.to, `${w.why} (in tab ${w.tab})`, sink);
        return;
      }
      case 'bye': {
        if (w.name === LEAD) {
          if (leadHere || this.leadGone) return;
          this.leadGone = true;
          await this.stop(sink, `the lead's team ended (tab ${w.tab})`);
          return;
        }
        const m = this.members.get(w.name);
        if (m?.remoteTab === w.tab && !isFinal(m.state)) await this.goAway(m, sink, `its tab (${w.tab}) closed`);
        return;
      }
      case 'read': {
        if (this.isLocal(w.name) || !this.isMember(w.name) || !Array.isArray(w.ids)) return;
        const seen = this.readElsewhere.get(w.name) ?? new Set<string>();
        for (const id of w.ids) seen.add(id);
        this.readElsewhere.set(w.name, seen);
        const { messages } = await markRead(fs, this.workdir, w.name, seen, this.lockOptions(w.name, sink));
        const m = this.members.get(w.name);
        if (messages.length > 0) await sink(this.stampFor(m?.agentId, { type: 'mailbox.read', reader: w.name, messages, path: inboxPath(this.workdir, w.name).slice(this.workdir.length + 1), problems: [] }));
        return;
      }
      case 'claim': {
        const m = this.members.get(w.name);
        if (leadHere && m?.remoteTab === w.tab && !isFinal(m.state)) this.remoteClaims.add(w.name);
        return;
      }
      case 'claimed': {
        const m = this.members.get(w.name);
        if (!m || m.remoteTab !== undefined || isFinal(m.state)) return;
        m.claimAsked = false;
        const tasks = await writeBoard(fs, this.workdir, w.tasks, this.lockOptions(m.name, sink, m.agentId), true);
        if (w.task) {
          m.taskId = w.task.id;
          await sink(this.stampFor(m.agentId, { type: 'task.claimed', taskId: w.task.id, subject: w.task.subject, owner: m.name, contenders: w.contenders, lockWaits: w.lockWaits, tasks }));
          if (!m.loop) await this.wake(m, claimText(w.task), `claimed task #${w.task.id} (decided in the lead's tab ${w.tab})`, sink);
        } else if (w.allDone && m.state === 'idle') await this.move(m, 'done', 'every task on the board is completed', sink);
        return;
      }
      case 'tasks': {
        if (!Array.isArray(w.tasks) || w.tasks.length === 0) return;
        const board = await writeBoard(fs, this.workdir, w.tasks, this.lockOptions(w.name, sink));
        const changes = Array.isArray(w.changes) ? w.changes : [];
        for (const t of w.tasks) {
          const task = board.find((x) => x.id === t.id) ?? t;
          await sink(this.stampFor(w.name === LEAD ? undefined : `teammate-${w.name}`, { type: 'task.updated', task, changes: [...changes, `from tab ${w.tab}`], tasks: board }));
        }
        return;
      }
      case 'refused':
        if (w.to !== this.wire?.tab || leadHere || this.refused !== undefined) return;
        this.refused = typeof w.why === 'string' ? w.why : 'the lead refused this tab';
        if (this.joining === w.name) {
          delete this.joining;
          await sink({ type: 'teammate.join_timeout', name: w.name, side: 'teammate', why: this.refused });
        } else await this.stop(sink, `the lead's tab refused this tab (${this.refused})`);
        return;
      case 'beat':
        return;
      case 'offer': {
        const m = this.members.get(w.name);
        if (!m || m.remoteTab !== w.tab || !m.workspace || !m.tabBase || !Array.isArray(w.files)) return;
        const { paths } = await applyOffer(m.workspace.sandbox.fs, m.workspace.sandbox.workdir, m.tabBase, w.files, m.offered ?? new Set());
        m.offered = paths;
        return;
      }
    }
  }

  /** Lead's tab: a tab joined as `m`: its copy of the tree is made here (an isolated workspace) and sent with the board and its mail. */
  private async welcome(m: Teammate, tab: string, sink: Sink): Promise<void> {
    m.remoteTab = tab;
    delete m.joinDeadline;
    m.workspace = await this.openWorkspace(m.name, m.agentId, sink);
    const files = await workingFiles(m.workspace.sandbox.fs, m.workspace.sandbox.workdir);
    m.tabBase = files;
    const { tasks } = await readTasks(this.runtime.sandbox.fs, this.workdir);
    const mail = await allMessages(this.runtime.sandbox.fs, this.workdir, m.name);
    this.wire?.transport.post({ kind: 'welcome', tab: this.wire.tab, to: tab, name: m.name, files, tasks, mail, autoClaim: m.autoClaim, members: [LEAD, ...this.members.keys()] });
    await sink(this.stampFor(m.agentId, { type: 'teammate.joined', name: m.name, tab, side: 'lead', files: Object.keys(files).length, tasks: tasks.length, messages: mail.length }));
  }

  /**
   * Teammate's tab: asks the lead's tab to be `name`, a teammate the lead spawned to run in
   * another tab. The answer (`welcome`) arrives while this team is pumped; until then nothing runs.
   */
  join(name: string): void {
    if (!this.wire) throw new Error('join needs a transport (attachTransport first)');
    this.joining = name;
    this.wire.transport.post({ kind: 'hello', tab: this.wire.tab, name, state: 'idle', join: true });
  }

  /** Whether this tab still waits for the lead's tab to welcome it. */
  get awaitingWelcome(): boolean {
    return this.joining !== undefined;
  }

  /** Teammate's tab: the welcome arrived: take the copy, the board and the mail, and start the teammate here. */
  private async joined(w: Extract<TeamWire, { kind: 'welcome' }>, sink: Sink): Promise<void> {
    delete this.joining;
    const fs = this.runtime.sandbox.fs;
    const files = typeof w.files === 'object' && w.files !== null ? w.files : {};
    await takeCopy(fs, this.workdir, files);
    const tasks = await writeBoard(fs, this.workdir, Array.isArray(w.tasks) ? w.tasks : [], this.lockOptions(w.name, sink), true);
    const mail = Array.isArray(w.mail) ? w.mail : [];
    const known = new Set((await allMessages(fs, this.workdir, w.name)).map((x) => x.id));
    for (const message of mail) if (!known.has(message.id)) await appendMessage(fs, this.workdir, message, this.lockOptions(message.from, sink));
    // This tab's bookkeeping, before the teammate's own first event (its spawn here).
    await sink({ type: 'teammate.joined', name: w.name, tab: this.wire!.tab, side: 'teammate', files: Object.keys(files).length, tasks: tasks.length, messages: mail.length });
    const r = await this.spawn({ name: w.name, prompt: '', autoClaim: w.autoClaim === true, system: teammateSystem(w.name, Array.isArray(w.members) ? w.members : [LEAD, w.name]) }, sink, { welcomed: true });
    if (!r.ok) throw new Error(r.message);
    r.teammate.tabBase = files;
  }

  private remoteMember(name: string, tab: string): Teammate {
    return {
      name,
      agentId: `teammate-${name}`,
      state: 'idle',
      history: [],
      system: '',
      tools: [],
      model: { name: 'remote', stream: async function* () {} } as unknown as ModelClient,
      sandbox: this.runtime.sandbox,
      files: new FileState(),
      autoClaim: false,
      isolation: 'shared',
      abort: new AbortController(),
      stopping: false,
      seq: 0,
      toolUses: 0,
      remoteTab: tab,
    };
  }

  constructor(readonly runtime: TeamRuntime) {
    this.presence = new Presence(runtime.missedBeats ?? DEFAULT_MISSED_BEATS);
  }

  get workdir(): string {
    return this.runtime.sandbox.workdir;
  }

  lockOptions(holder: string, sink?: Sink, agentId?: string): LockOptions {
    return {
      clock: this.runtime.clock,
      holder,
      staleMs: this.runtime.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
      retryMs: this.runtime.lockRetryMs ?? DEFAULT_LOCK_RETRY_MS,
      uniq: () => this.runtime.ids.next('stale'),
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
  private stampFor(agentId: string | undefined, body: TraceEventBody): TraceEvent | TraceEventBody {
    if (!agentId || agentId === 'main') return body;
    const m = [...this.members.values()].find((x) => x.agentId === agentId);
    const seq = m ? ++m.seq : (this.seqOf.set(agentId, (this.seqOf.get(agentId) ?? 0) + 1), this.seqOf.get(agentId)!);
    return { ...body, seq, ts: this.runtime.clock.now(), agentId, turn: 0 } as TraceEvent;
  }

  private async move(m: Teammate, to: TeammateState, why: string, sink: Sink): Promise<void> {
    if (m.state === to || !canMove(m.state, to)) return;
    const from = m.state;
    m.state = to;
    m.lastWhy = why;
    if (to !== 'working' && to !== 'waiting') delete m.taskId;
    await sink(this.stampFor(m.agentId, { type: 'agent.state', name: m.name, from, to, why, ...(m.taskId ? { taskId: m.taskId } : {}) }));
    if (!m.remoteTab) this.wire?.transport.post({ kind: 'state', tab: this.wire.tab, name: m.name, to, why });
    // Finished (for now, or for good): its isolated copy is offered back.
    // A teammate in another tab keeps its copy here until it is final (its tab may offer more).
    if (((to === 'done' && m.remoteTab === undefined) || isFinal(to)) && m.workspace) await this.closeWorkspace(m, sink);
  }

  private async openWorkspace(name: string, agentId: string, sink: Sink): Promise<TeammateWorkspace> {
    return this.runtime.workspace!({ name, agentId, base: this.runtime.sandbox, emit: sink });
  }

  /**
   * Offers a finished teammate's changes back (merged or refused as conflicts, never overwritten),
   * removes its copy, and tells the lead what happened in a message from `team` — the lead learns
   * it the way it learns everything in a team, and a lead waiting in read_inbox wakes for it.
   */
  private async closeWorkspace(m: Teammate, sink: Sink): Promise<void> {
    const ws = m.workspace!;
    delete m.workspace;
    m.sandbox = this.runtime.sandbox;
    let outcome: WorkspaceOutcome;
    try {
      outcome = await ws.close(sink);
    } catch (err) {
      outcome = { changed: 1, report: `Its changes could not be offered back (${err instanceof Error ? err.message : String(err)}); nothing was merged.` };
    }
    this.outcomes.push({ name: m.name, ...outcome });
    if (outcome.changed > 0) await this.notify(LEAD, `${m.name}'s isolated workspace (it is ${m.state}): ${outcome.report}`, sink);
  }

  /** A message from the team itself (not from an agent), as `request_timeout` is. */
  private async notify(to: string, body: string, sink: Sink): Promise<void> {
    const message: TeamMessage = { id: this.nextId('msg'), from: 'team', to, type: 'message', body, ts: this.runtime.clock.now() };
    const sent = await appendMessage(this.runtime.sandbox.fs, this.workdir, message, this.lockOptions('team', sink));
    this.stats.lockWaits += sent.waits;
    this.stats.messages++;
    this.wire?.transport.post({ kind: 'message', tab: this.wire.tab, message });
    await sink({ type: 'mailbox.sent', message, path: sent.path.slice(this.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread });
  }

  async spawn(req: SpawnRequest, sink: Sink, how: { welcomed?: boolean } = {}): Promise<{ ok: true; teammate: Teammate } | { ok: false; message: string }> {
    if (!NAME.test(req.name) || req.name === LEAD) return { ok: false, message: `"${req.name}" is not a teammate name: use lowercase letters, digits and dashes (not "${LEAD}").` };
    if (this.members.has(req.name)) return { ok: false, message: `A teammate named ${req.name} already exists (state: ${this.members.get(req.name)!.state}). Send it a message instead.` };
    if (req.inTab && this.wire && this.runtime.hostsLead !== false) return this.spawnInTab(req, sink);
    // No other tab can join (a headless run, no channel): it runs here, in its own copy as it would in a tab.
    const isolation = req.isolation ?? (req.inTab && this.runtime.workspace ? 'overlay' : 'shared');
    if (isolation === 'overlay' && !this.runtime.workspace) return { ok: false, message: 'Isolated workspaces (isolation: "overlay") are not available in this build; spawn the teammate with isolation "shared".' };
    const agentId = `teammate-${req.name}`;
    const model = this.runtime.modelFor({ agentId, description: req.name, subagentType: 'teammate' });
    if ('error' in model) return { ok: false, message: `The teammate ${req.name} could not start: ${model.error}` };
    let workspace: TeammateWorkspace | undefined;
    if (isolation === 'overlay') {
      try {
        workspace = await this.openWorkspace(req.name, agentId, sink);
      } catch (err) {
        return { ok: false, message: `The teammate ${req.name} could not start: its isolated workspace could not be made (${err instanceof Error ? err.message : String(err)}).` };
      }
    }
    const abort = new AbortController();
    this.runtime.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    const base = this.runtime.tools();
    const withTasks = base.some((t) => t.name === 'task_update') ? base : [...base, ...taskTools()];
    const names = [LEAD, ...this.members.keys(), req.name];
    const m: Teammate = {
      name: req.name,
      agentId,
      state: 'idle',
      history: [],
      system: req.system ?? teammateSystem(req.name, names),
      tools: [...withTasks, ...(this.runtime.teammateTools?.(this, req.name) ?? [])],
      model,
      sandbox: workspace?.sandbox ?? this.runtime.sandbox,
      files: new FileState(),
      autoClaim: req.autoClaim ?? false,
      isolation,
      ...(workspace ? { workspace } : {}),
      abort,
      stopping: false,
      seq: 0,
      toolUses: 0,
    };
    this.members.set(req.name, m);
    await sink({ type: 'teammate.spawned', name: req.name, teammateAgentId: agentId, prompt: req.prompt, model: this.runtime.modelId, tools: m.tools.map((t) => t.name), autoClaim: m.autoClaim, isolation });
    await sink(this.stampFor(agentId, { type: 'agent.state', name: req.name, from: 'new', to: 'idle', why: 'spawned' }));
    this.wire?.transport.post({ kind: 'hello', tab: this.wire.tab, name: req.name, state: 'idle' });
    // Welcomed from the lead's tab: its prompt is already in its mailbox.
    if (!how.welcomed) await this.send({ from: LEAD, to: req.name, type: 'message', body: req.prompt }, sink, 'main');
    return { ok: true, teammate: m };
  }

  /**
   * A teammate that will run in another tab: its lane waits (`remoteTab: ''`) until a tab joins
   * as it; then it gets an isolated copy here, which that tab's offers fill and which is merged
   * back when it finishes. Its prompt waits in its mailbox, sent with the welcome.
   */
  private async spawnInTab(req: SpawnRequest, sink: Sink): Promise<{ ok: true; teammate: Teammate } | { ok: false; message: string }> {
    if (!this.runtime.workspace) return { ok: false, message: 'A teammate in another tab needs isolated workspaces (its changes come back as a copy to merge), which this build does not have.' };
    const m = this.remoteMember(req.name, '');
    m.autoClaim = req.autoClaim ?? false;
    m.isolation = 'overlay';
    // 0: no join timeout (it waits until the run ends).
    if (this.joinTimeoutMs > 0) m.joinDeadline = this.runtime.clock.now() + this.joinTimeoutMs;
    this.members.set(req.name, m);
    await sink({ type: 'teammate.spawned', name: req.name, teammateAgentId: m.agentId, prompt: req.prompt, model: this.runtime.modelId, tools: [], autoClaim: m.autoClaim, isolation: 'overlay', inTab: true });
    await sink(this.stampFor(m.agentId, { type: 'agent.state', name: req.name, from: 'new', to: 'idle', why: `waiting for a tab to join as ${req.name} (the Team tab has the link)` }));
    this.wire?.transport.post({ kind: 'invite', tab: this.wire.tab, name: req.name });
    await this.send({ from: LEAD, to: req.name, type: 'message', body: req.prompt }, sink, 'main');
    return { ok: true, teammate: m };
  }

  /**
   * Sends one message through the protocol's rules; a refusal is a sentence for the model.
   * `senderAgentId` stamps the events when the sender is not the agent whose stream `sink` is.
   */
  async send(
    msg: { from: string; to: string; type: MessageType; body: string; requestId?: string; approve?: boolean },
    sink: Sink,
    senderAgentId?: string,
  ): Promise<{ ok: true; message: TeamMessage } | { ok: false; message: string }> {
    const problem = this.protocolProblem(msg);
    if (problem) return { ok: false, message: problem };
    const now = this.runtime.clock.now();
    const requestId = isRequest(msg.type) ? this.nextId('req') : msg.requestId;
    const message: TeamMessage = {
      id: this.nextId('msg'),
      from: msg.from,
      to: msg.to,
      type: msg.type,
      ...(requestId ? { requestId } : {}),
      ...(msg.approve !== undefined ? { approve: msg.approve } : {}),
      body: msg.body,
      ts: now,
    };
    const sent = await appendMessage(this.runtime.sandbox.fs, this.workdir, message, this.lockOptions(msg.from, sink, senderAgentId));
    this.stats.lockWaits += sent.waits;
    this.stats.messages++;
    this.record(message, true);
    this.wire?.transport.post({ kind: 'message', tab: this.wire.tab, message });
    await sink(this.stampFor(senderAgentId, { type: 'mailbox.sent', message, path: sent.path.slice(this.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread }));
    return { ok: true, message };
  }

  /** The protocol's bookkeeping for a message sent here or arrived from another tab (whose sender owns the timeout). */
  private record(message: TeamMessage, ownsTimeout: boolean): void {
    const now = this.runtime.clock.now();
    if (isRequest(message.type) && message.requestId) {
      const deadline = ownsTimeout ? now + (this.runtime.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) : Number.POSITIVE_INFINITY;
      this.requests.set(message.requestId, { id: message.requestId, type: message.type as OpenRequest['type'], from: message.from, to: message.to, sentAt: now, deadline });
    } else if (message.requestId && message.type !== 'request_timeout') {
      this.requests.delete(message.requestId);
      if (message.type === 'shutdown_response' && message.approve) {
        const m = this.members.get(message.from);
        if (m) m.stopping = true;
      }
    } else if (message.requestId) {
      this.requests.delete(message.requestId);
    }
  }

  private protocolProblem(msg: { from: string; to: string; type: MessageType; requestId?: string; approve?: boolean }): string | null {
    if (!this.isMember(msg.to)) return `There is no teammate ${msg.to}. The team: ${[LEAD, ...this.members.keys()].join(', ')}.`;
    if (msg.to === msg.from) return 'You cannot send a message to yourself.';
    const target = this.members.get(msg.to);
    if (target && isFinal(target.state)) return `${msg.to} has ${target.state === 'gone' ? 'gone' : 'shut down'}; it reads no more messages.`;
    if (msg.type === 'request_timeout') return 'request_timeout messages come from the team, not from an agent.';
    if (msg.type === 'shutdown_request' && msg.from !== LEAD) return `Only ${LEAD} asks a teammate to shut down.`;
    if (msg.type === 'plan_submission' && msg.to !== LEAD) return `Plans go to ${LEAD} for approval.`;
    if (isRequest(msg.type)) {
      // s10: an agent waiting for an answer sends no second request (the lead: none to the same teammate).
      const open = [...this.requests.values()].find((r) => r.from === msg.from && (msg.from !== LEAD || r.to === msg.to));
      if (open) return `You are still waiting for the answer to ${open.id} (${open.type} to ${open.to}); wait for it (read_inbox) before sending another request.`;
      return null;
    }
    if (msg.type === 'shutdown_response' || msg.type === 'plan_response') {
      if (!msg.requestId) return `A ${msg.type} needs request_id: the id of the request it answers.`;
      if (msg.approve === undefined) return `A ${msg.type} needs approve: true or false.`;
      const req = this.requests.get(msg.requestId);
      if (!req) return `There is no open request ${msg.requestId} (it was answered, timed out, or never sent).`;
      if (req.to !== msg.from || req.from !== msg.to || RESPONSE_OF[req.type] !== msg.type) return `${msg.requestId} is a ${req.type} from ${req.from} to ${req.to}; it is answered by ${req.to} with a ${RESPONSE_OF[req.type]} to ${req.from}.`;
    }
    return null;
  }

  /** Takes an agent's unread mail (cursor moves) and reports it. */
  async read(name: string, sink: Sink, agentId?: string): Promise<TeamMessage[]> {
    const { messages, waits, problems } = await takeUnread(this.runtime.sandbox.fs, this.workdir, name, this.lockOptions(name, sink, agentId));
    this.stats.lockWaits += waits;
    // The other tabs keep a copy of this mailbox: they move their cursor too (unread counts agree).
    if (messages.length > 0) this.wire?.transport.post({ kind: 'read', tab: this.wire.tab, name, ids: messages.map((x) => x.id) });
    if (messages.length > 0 || problems.length > 0) {
      await sink(this.stampFor(agentId, { type: 'mailbox.read', reader: name, messages, path: inboxPath(this.workdir, name).slice(this.workdir.length + 1), problems }));
    }
    return messages;
  }

  private async wake(m: Teammate, text: string, why: string, sink: Sink): Promise<void> {
    if (m.isolation === 'overlay' && !m.workspace) {
      // Woken after it finished (done → working): a fresh copy of the tree as it is now, and a
      // fresh read state (what it read in the old copy may have changed since).
      m.workspace = await this.openWorkspace(m.name, m.agentId, sink);
      m.sandbox = m.workspace.sandbox;
      m.files = new FileState();
    }
    const input: LoopInput = {
      messages: withUserContent(m.history, [{ type: 'text', text }]),
      system: m.system,
      tools: m.tools,
      model: this.runtime.modelId,
      maxTokens: this.runtime.maxTokens,
      maxTurns: this.runtime.maxTurns ?? DEFAULT_TEAMMATE_MAX_TURNS,
      cwd: m.sandbox.workdir,
      signal: this.wakeSignal(m),
      permissions: this.runtime.permissions,
      ...(this.runtime.context ? { context: this.runtime.context } : {}),
    };
    const hooks = childHooks(this.runtime.hooks);
    const prompt = this.runtime.prompt;
    const deps: LoopDeps = {
      model: m.model,
      sandbox: m.sandbox,
      clock: this.runtime.clock,
      ids: this.runtime.ids,
      agentId: m.agentId,
      files: m.files,
      ...(hooks ? { hooks } : {}),
      ...(prompt ? { prompt: (r) => prompt({ ...r, agent: { id: m.agentId, label: `teammate ${m.name}` } }) } : {}),
      ...(this.runtime.sessionGrants ? { sessionGrants: this.runtime.sessionGrants } : {}),
      ...(this.runtime.summarize ? { summarize: this.runtime.summarize } : {}),
    };
    m.loop = agentLoop(input, deps);
    await this.move(m, 'working', why, sink);
  }

  private wakeSignal(m: Teammate): AbortSignal {
    const run = new AbortController();
    if (m.abort.signal.aborted) run.abort();
    const onAbort = () => run.abort();
    m.abort.signal.addEventListener('abort', onAbort, { once: true });
    m.unhook = () => m.abort.signal.removeEventListener('abort', onAbort);
    return run.signal;
  }

  private async finish(m: Teammate, result: RunResult, sink: Sink): Promise<void> {
    delete m.loop;
    m.unhook?.();
    delete m.unhook;
    m.history = result.messages;
    // Joined from another tab: what it changed so far goes to the lead's tab before its new state does.
    if (m.tabBase && this.wire) this.wire.transport.post({ kind: 'offer', tab: this.wire.tab, name: m.name, files: await changesAgainst(m.sandbox.fs, m.sandbox.workdir, m.tabBase) });
    // Going away: markGone moves it to `gone` itself.
    if (m.leaving) return;
    if (m.stopping || result.reason === 'aborted') return this.move(m, 'shut_down', m.stopping ? 'it approved the shutdown request' : 'the team was stopped', sink);
    if (result.reason !== 'completed') return this.move(m, 'done', `its loop ended: ${result.reason}`, sink);
    const waitingFor = [...this.requests.values()].find((r) => r.from === m.name);
    if (waitingFor) return this.move(m, 'waiting', `waiting for the answer to ${waitingFor.id} (${waitingFor.type})`, sink);
    const idle = await teammateIdleHook(m, 'team', { hooks: this.runtime.hooks, sandbox: this.runtime.sandbox, clock: this.runtime.clock });
    for (const e of idle.events) await sink(this.stampFor(m.agentId, e));
    if (idle.keepWorking) return this.wake(m, idle.keepWorking, 'a TeammateIdle hook kept it working', sink);
    return this.move(m, 'idle', 'its turn ended', sink);
  }

  /** One event of a working teammate, forwarded; false when it had none (its loop just ended). */
  private async stepOne(m: Teammate, sink: Sink): Promise<boolean> {
    const step = await m.loop!.next();
    if (step.done) {
      await this.finish(m, step.value, sink);
      return true;
    }
    const e = step.value;
    if (e.agentId === m.agentId && e.type === 'tool.started') m.toolUses++;
    // Its task tools wrote this tab's board: the other tabs write the same tasks to theirs.
    if (this.wire && e.agentId === m.agentId && (e.type === 'task.updated' || e.type === 'task.created')) {
      this.wire.transport.post({ kind: 'tasks', tab: this.wire.tab, name: m.name, tasks: [e.task], changes: e.type === 'task.updated' ? e.changes : ['created'] });
    }
    await sink(e.agentId === m.agentId ? { ...e, seq: ++m.seq } : e);
    return false;
  }

  /** Idle (or done / waiting) teammates with mail wake up with it. */
  private async deliverMail(sink: Sink): Promise<boolean> {
    let woke = false;
    for (const m of this.members.values()) {
      if (m.loop || m.remoteTab !== undefined || isFinal(m.state)) continue;
      if (this.ending && !this.ending.asked.has(m.name)) continue;
      const pending = await unreadMessages(this.runtime.sandbox.fs, this.workdir, m.name);
      if (pending.length === 0) continue;
      const messages = await this.read(m.name, sink, m.agentId);
      if (messages.length === 0) continue;
      await this.wake(m, messages.map(messageLine).join('\n'), `mail from ${[...new Set(messages.map((x) => x.from))].join(', ')}`, sink);
      woke = true;
    }
    return woke;
  }

  /** Idle auto-claimers race for ready tasks; the board's lock gives each task one owner. */
  private async claimRound(sink: Sink): Promise<boolean> {
    if (this.ending) return false;
    const idleClaimer = (m: Teammate) => !m.loop && m.autoClaim && (m.state === 'idle' || m.state === 'done');
    // A teammate's tab asks the lead's tab, which owns the board's lock; the answer wakes it (`claimed`).
    if (this.runtime.hostsLead === false) {
      for (const m of this.members.values()) {
        if (m.remoteTab !== undefined || !idleClaimer(m) || m.claimAsked || !this.wire || this.leadGone) continue;
        m.claimAsked = true;
        this.wire.transport.post({ kind: 'claim', tab: this.wire.tab, name: m.name });
      }
      return false;
    }
    const claimers = [...this.members.values()].filter((m) => (m.remoteTab === undefined || this.remoteClaims.has(m.name)) && idleClaimer(m));
    if (claimers.length === 0) return false;
    const results = await Promise.all(
      claimers.map(async (m) => ({ m, r: await claimNextTask(this.runtime.sandbox.fs, this.workdir, m.name, this.lockOptions(m.name, sink, m.agentId)) })),
    );
    let any = false;
    const contenders = claimers.map((m) => m.name);
    for (const { m, r } of results) {
      this.stats.lockWaits += r.waits;
      if (r.task) {
        any = true;
        this.stats.claims++;
        m.taskId = r.task.id;
        await sink(this.stampFor(m.agentId, { type: 'task.claimed', taskId: r.task.id, subject: r.task.subject, owner: m.name, contenders, lockWaits: r.waits, tasks: r.tasks }));
        if (m.remoteTab !== undefined) {
          // Decided here, under the board's lock; its own tab wakes it.
          this.remoteClaims.delete(m.name);
          this.wire?.transport.post({ kind: 'claimed', tab: this.wire.tab, name: m.name, task: r.task, tasks: r.tasks, allDone: false, contenders, lockWaits: r.waits });
          continue;
        }
        await this.wake(m, claimText(r.task), `claimed task #${r.task.id}`, sink);
      } else if (r.allDone && m.remoteTab !== undefined) {
        this.remoteClaims.delete(m.name);
        this.wire?.transport.post({ kind: 'claimed', tab: this.wire.tab, name: m.name, task: null, tasks: r.tasks, allDone: true, contenders, lockWaits: r.waits });
      } else if (r.allDone && m.state === 'idle') {
        await this.move(m, 'done', 'every task on the board is completed', sink);
      }
    }
    return any;
  }

  get joinTimeoutMs(): number {
    return this.runtime.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS;
  }

  /** Lead's tab: when each teammate in another tab stops being waited for (a join, or its heartbeats), on the Clock. */
  private presenceDeadlines(): { m: Teammate; at: number; kind: 'join' | 'lost' }[] {
    if (this.runtime.hostsLead === false) return [];
    const out: { m: Teammate; at: number; kind: 'join' | 'lost' }[] = [];
    for (const m of this.members.values()) {
      if (m.remoteTab === undefined || isFinal(m.state)) continue;
      if (m.remoteTab === '') {
        if (m.joinDeadline !== undefined) out.push({ m, at: m.joinDeadline, kind: 'join' });
        continue;
      }
      const at = this.presence.deadline(m.remoteTab);
      if (at !== undefined) out.push({ m, at, kind: 'lost' });
    }
    return out;
  }

  /** Nobody joined in time, or a joined tab went silent: the teammate is gone and the lead is told by mail. */
  private async expirePresence(now: number, sink: Sink): Promise<boolean> {
    let any = false;
    for (const { m, at, kind } of this.presenceDeadlines()) {
      if (at > now) continue;
      any = true;
      if (kind === 'join') {
        const why = `no tab joined as ${m.name} within ${this.joinTimeoutMs} ms`;
        await sink(this.stampFor(m.agentId, { type: 'teammate.join_timeout', name: m.name, side: 'lead', why, timeoutMs: this.joinTimeoutMs }));
        for (const r of [...this.requests.values()]) if (r.from === m.name || r.to === m.name) this.requests.delete(r.id);
        await this.move(m, 'gone', `${why}; nobody read its prompt`, sink);
        await this.notify(LEAD, `Nobody joined as ${m.name} within ${this.joinTimeoutMs} ms, so ${m.name} is gone (its prompt was never read). Spawn it again without in_tab to run it in this tab, or do its work yourself.`, sink);
        continue;
      }
      const tab = m.remoteTab!;
      const s = this.presence.silence(tab, now);
      await sink(this.stampFor(m.agentId, { type: 'teammate.lost', name: m.name, tab, ...s }));
      const pending = await this.goAway(m, sink, `its tab (${tab}) stopped answering: no heartbeat for ${s.silentMs} ms (${s.missedBeats} beats of ${s.everyMs} ms missed)`);
      await this.notify(LEAD, `${m.name}'s tab (${tab}) stopped answering (no heartbeat for ${s.silentMs} ms), so ${m.name} is gone; its in-progress tasks return to the board after ${pending.afterMs} ms.`, sink);
    }
    return any;
  }

  /** Requests past their deadline: the requester gets a `request_timeout` message. */
  private async expire(sink: Sink): Promise<boolean> {
    const now = this.runtime.clock.now();
    let any = await this.expirePresence(now, sink);
    for (const r of [...this.releases.values()]) {
      if (r.deadline > now) continue;
      any = true;
      await this.release(r, sink);
    }
    for (const r of [...this.requests.values()]) {
      if (r.deadline > now) continue;
      this.requests.delete(r.id);
      any = true;
      const from = this.members.get(r.from);
      await sink(this.stampFor(from?.agentId, { type: 'protocol.timeout', requestId: r.id, request: r.type, from: r.from, to: r.to, waitedMs: now - r.sentAt }));
      const message: TeamMessage = { id: this.nextId('msg'), from: 'team', to: r.from, type: 'request_timeout', requestId: r.id, body: `Nobody answered ${r.id} (${r.type} to ${r.to}) within ${now - r.sentAt} ms. Decide without the answer.`, ts: now };
      const sent = await appendMessage(this.runtime.sandbox.fs, this.workdir, message, this.lockOptions('team', sink));
      await sink(this.stampFor(from?.agentId, { type: 'mailbox.sent', message, path: sent.path.slice(this.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread }));
    }
    return any;
  }

  /**
   * Drives the team until `until()` holds (checked between rounds) or nothing can move: every
   * teammate idle, waiting, done or shut down, no mail, no claimable task and no open request.
   */
  async pump(sink: Sink, until: () => Promise<boolean>, signal?: AbortSignal): Promise<'until' | 'quiet' | 'aborted'> {
    // The lead is woken only at a teammate's turn boundary (a wake-up ended), never between two
    // tool calls of one teammate's reply: so a request is answered after its sender's turn.
    let boundary = true;
    for (;;) {
      if (signal?.aborted) return 'aborted';
      if (boundary && (await until())) {
        // A teammate that approved its shutdown finishes its turn first, so the lead sees it stopped.
        const winding = [...this.members.values()].filter((m) => m.stopping && m.loop);
        if (winding.length === 0) return 'until';
        for (const m of winding) await this.stepOne(m, sink);
        continue;
      }
      boundary = false;
      let moved = await this.drainWire(sink);
      if (moved) boundary = true;
      moved = (await this.deliverMail(sink)) || moved;
      moved = (await this.claimRound(sink)) || moved;
      for (const m of this.members.values()) {
        if (!m.loop) continue;
        if (await this.stepOne(m, sink)) boundary = true;
        moved = true;
      }
      if (moved) continue;
      boundary = true;
      if (await until()) continue;
      const presence = this.presenceDeadlines().map((d) => d.at);
      const timed = this.releases.size > 0 || presence.length > 0 || [...this.requests.values()].some((r) => Number.isFinite(r.deadline));
      // Teammates in other tabs may still answer: wait for their next note (not for time).
      if (this.remoteAlive() && !timed) {
        await this.waitForWire(signal);
        continue;
      }
      if (!timed) return 'quiet';
      if (await this.expire(sink)) continue;
      // Nothing can move but a request is open: let time run to its deadline (the Clock port's sleep).
      const next = Math.min(...[...this.requests.values()].map((r) => r.deadline).filter(Number.isFinite), ...[...this.releases.values()].map((r) => r.deadline), ...presence);
      try {
        const sleep = this.runtime.clock.sleep(Math.max(1, next - this.runtime.clock.now()), signal);
        // A teammate in another tab may answer before the deadline: whichever comes first.
        await (this.remoteAlive() ? Promise.race([sleep, this.waitForWire(signal)]) : sleep);
      } catch {
        return 'aborted';
      }
    }
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
      while (m.loop) await this.stepOne(m, sink);
      await this.move(m, 'shut_down', why, sink);
    }
  }

  /** The lead's own task tools changed the board here: the teammates' tabs write the same task (their board stays current between claims). */
  shareLeadTask(e: TraceEvent): void {
    if (!this.wire || this.runtime.hostsLead === false || e.agentId !== 'main') return;
    if (e.type !== 'task.created' && e.type !== 'task.updated') return;
    if (![...this.members.values()].some((m) => m.remoteTab)) return;
    this.wire.transport.post({ kind: 'tasks', tab: this.wire.tab, name: LEAD, tasks: [e.task], changes: e.type === 'task.updated' ? e.changes : ['created'] });
  }

  /** Tells the teammates in other tabs that the lead's team has ended (they stop theirs); the channel stays open. */
  announceEnd(): void {
    if (this.wire && this.runtime.hostsLead !== false) this.wire.transport.post({ kind: 'bye', tab: this.wire.tab, name: LEAD });
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
    const pending = await this.goAway(m, sink, why, afterMs);
    await this.runtime.clock.sleep(afterMs, this.runtime.signal);
    return this.release(pending, sink);
  }

  /** The immediate part of going away; the release is scheduled (see `releases`). */
  private async goAway(m: Teammate, sink: Sink, why: string, afterMs = this.runtime.releaseAfterMs ?? DEFAULT_RELEASE_AFTER_MS): Promise<PendingRelease> {
    m.leaving = true;
    m.abort.abort();
    while (m.loop) await this.stepOne(m, sink);
    this.remoteClaims.delete(m.name);
    const pending: PendingRelease = { name: m.name, agentId: m.agentId, deadline: this.runtime.clock.now() + afterMs, afterMs, why };
    this.releases.set(m.name, pending);
    await this.move(m, 'gone', `${why}; its claimed tasks return to the board after ${afterMs} ms unless it comes back`, sink);
    for (const r of [...this.requests.values()]) if (r.from === m.name || r.to === m.name) this.requests.delete(r.id);
    return pending;
  }

  /** A gone teammate's in-progress tasks go back to the board (`task.released`). */
  async release(r: PendingRelease, sink: Sink, why = r.why): Promise<string[]> {
    this.releases.delete(r.name);
    const { released, tasks } = await releaseTasksOf(this.runtime.sandbox.fs, this.workdir, r.name, this.lockOptions('team', sink));
    if (released.length > 0) await sink(this.stampFor(r.agentId, { type: 'task.released', owner: r.name, taskIds: released.map((t) => t.id), why, afterMs: r.afterMs, tasks }));
    return released.map((t) => t.id);
  }

  summary(): string {
    if (this.members.size === 0) return 'No teammates yet.';
    return [...this.members.values()].map((m) => `${m.name}: ${m.state}${m.taskId ? ` (task #${m.taskId})` : ''}`).join(', ');
  }
}
