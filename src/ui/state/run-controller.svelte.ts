/**
 * One run of a scenario, driven by pulling the loop's generator. Stepping is nothing more than
 * calling `next()` once; running is calling it until the generator ends or the user pauses;
 * stopping fires the AbortController and keeps pulling so the loop can yield its closing events.
 *
 * Only one pull is ever in flight (`busy`), so double clicks and key repeats cannot interleave
 * `next()` calls. Every await re-checks `epoch`, so a reset mid-pull leaves no stale writes.
 */
import type { JsHookRunner, Message, ModelClient, RunResult, Sandbox, TraceEvent, TrustStore } from '../../harness/index.ts';
import { agentLoop, FileState } from '../../harness/index.ts';
import { SessionGrants, type PermissionContext, type PermissionMode } from '../../harness/permissions/index.ts';
import { mergeSettings, permissionContextOf } from '../../harness/settings/index.ts';
import type { SandboxSnapshot } from '../../harness/session/types.ts';
import { applyTrust } from '../../harness/trust/index.ts';
import { scriptedFollowUp } from './scripted-follow-up.ts';
import { pathsSeenInLog } from './restore-reads.ts';
import { prepareRun } from '../../scenarios/prepare.ts';
import { harnessSettingsOf, type Scenario } from '../../scenarios/schema.ts';
import { deriveConversation } from './conversation.ts';
import { PermissionPrompts } from './permission-prompts.svelte.ts';
import { derivePermissions, deriveHookRows } from './safety.ts';
import type { ModelSettings } from './settings.svelte.ts';
import { captionOf, stageOf, type StageNode } from './stage.ts';
import { TrustGate, type ScenarioOrigin } from './trust-gate.svelte.ts';
import { browserMemoryStore } from '../memory/browser-store.ts';
import { memoryContext } from './run-memory.ts';
import { documentLiveContext, mustConfirmLiveContext, type DocumentLiveContext } from '../../scenarios/live-context.ts';
import { deriveUsage } from './usage.ts';
import { SteeringBox } from './steering.svelte.ts';
import { bundledSkillFiles } from '../../skills-bundle/vite.ts';
import { ALL_AGENT_FEATURES } from '../../scenarios/prepare-agents.ts';
import { lockConnectTo } from '../../security/connect-lock.svelte.ts';
import { mcpSession } from '../mcp/mcp-session.svelte.ts';

export type RunStatus = 'idle' | 'running' | 'paused' | 'done' | 'error' | 'aborted';

/** How the current pull loop should behave; changed from outside while it runs. */
type DriveMode = 'step' | 'run' | 'pause' | 'drain';

export type SandboxInfo = { kind: string; reason: string };

/** The files as they were at an earlier event (step back), or why they cannot be shown. */
export type FilesAt = { snapshot: SandboxSnapshot } | { unavailable: string };

/** A breakpoint test: the event just pulled and its log seq (1-based across runs). */
export type StopWhen = (event: TraceEvent, logSeq: number) => boolean;

/** How a run starts: a prompt (and earlier history), or a fork's whole history and model. */
type StartOptions = { prompt?: string; history?: Message[]; messages?: Message[]; model?: ModelClient };

/** Wraps a run's generator (the session manager persists it); must yield the same events. */
export type RunWrapper = (
  run: AsyncGenerator<TraceEvent, RunResult>,
  info: { sandbox: Sandbox; newConversation: boolean; prompt: string },
) => AsyncGenerator<TraceEvent, RunResult>;

/** Longest stretch a run keeps the main thread before it lets the page paint. */
const FRAME_MS = 40;
/** Events after which the generator may take a while to yield again. */
// model.error: a retry wait follows it, and its countdown must be on screen during the wait.
const WAITS_AFTER = new Set(['tool.started', 'model.request', 'permission.prompt', 'model.error']);

/** Pause between streamed chunks of a scripted reply, so text visibly streams when running. */
const SCRIPTED_CHUNK_DELAY_MS = 12;

const ENDED: readonly RunStatus[] = ['done', 'error', 'aborted'];

function statusFor(result: RunResult): RunStatus {
  if (result.reason === 'aborted') return 'aborted';
  if (result.reason === 'model_error') return 'error';
  return 'done';
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Where the sandbox's working directory is (the same for every sandbox). */
const WORKDIR = '/home/project';

export class RunController {
  scenario = $state.raw<Scenario>() as Scenario;
  /** Whether what the scenario brings (hooks, allow rules, permissive mode) applies. */
  readonly trust: TrustGate;
  /** The memory text of this conversation's first run, reused by its follow-ups. */
  private memoryText: string | undefined = undefined;
  status = $state<RunStatus>('idle');
  /** Every event of the session (follow-up runs append), immutable for cheap reactivity. */
  events = $state.raw<TraceEvent[]>([]);
  result = $state.raw<RunResult | null>(null);
  sandbox = $state.raw<Sandbox | null>(null);
  sandboxInfo = $state.raw<SandboxInfo | null>(null);
  /** What slow thing is happening before the first event ("Booting sandbox…"), or ''. */
  phase = $state('');
  /** A pull (or the start of a run) is in flight. */
  busy = $state(false);
  /** Why the last action could not happen, in words that say what to do. */
  notice = $state<string | null>(null);
  /** A stored session another tab is writing is shown: nothing runs here (SessionManager). */
  readOnly = $state(false);
  /** Set by the session manager: records every run. */
  wrapRun: RunWrapper | null = null;
  /**
   * The sandbox files as of the `count`-th event (the Files panel when stepped back); set by the
   * session manager, which has the snapshots in the session log. Null: nothing records them.
   */
  filesAt: ((count: number) => Promise<FilesAt>) | null = null;
  /** Told at the start of every reset (the session manager ends the current session). */
  onReset: (() => void) | null = null;
  /**
   * An untrusted document brings a system prompt or CLAUDE.md into a live run: the question the
   * page shows before anything is sent with the user's key (`live-context.ts`). `pending` is the
   * run that waits for the answer.
   */
  liveContext = $state.raw<{ brings: DocumentLiveContext; pending: StartOptions; mode: DriveMode } | null>(null);
  /** The answer for this document, until Reset: use what it brings, or drop it. */
  private liveContextAnswer: 'use' | 'drop' | null = null;
  /** The whole document the scenario came from (a v1 scenario: every prompt, lessons): trust and memory origins key to it. */
  private document: unknown = null;
  /** The id of the session being recorded, if any; set by the session manager (memory origins). */
  sessionIdOf: (() => string | undefined) | null = null;
  /** SessionStart source of the next run, once: a resumed or forked session. */
  private nextSessionStart: 'resume' | 'fork' | null = null;

  /** Step back: how many events the panels show (null: all of them). Moved by the stepper. */
  cursor = $state<number | null>(null);
  /** The events the panels render: the whole log, or the log up to the cursor. */
  shown = $derived(this.cursor === null ? this.events : this.events.slice(0, this.cursor));
  /** Why pulling the next event must wait (a lesson question), given the log length; set by the lesson. */
  hold: (logLength: number) => string | null = () => null;
  /** The model client of the latest run: a fork or the scenario's next prompt continues its script. */
  lastModel: ModelClient | null = null;
  /** Wraps every live client before a run uses it (the recorder). */
  wrapLive: ((client: ModelClient) => ModelClient) | null = null;
  /** After "take over", runs use the live model even in scripted mode, until Reset. */
  takenOver = $state(false);
  /** The scenario's next prompt, offered (pre-filled) once a run has ended; set by the lesson. */
  followUp = $state<string | null>(null);
  /** Set by `run(stopWhen)`: the pull loop stops after an event it matches (a breakpoint). */
  private stopWhen: StopWhen | null = null;

  // At the end of the log of a run that is over, a call with no result was cut off, not pending.
  conversation = $derived(
    deriveConversation(this.shown, { settled: this.cursor === null && (this.status === 'aborted' || this.status === 'error' || this.status === 'done') }),
  );
  /** Permission stages per tool call, and the hooks timeline. */
  permissions = $derived(derivePermissions(this.shown));
  hookRows = $derived(deriveHookRows(this.shown));
  /** The question the permission dialog shows (the pipeline awaits its answer). */
  readonly prompts = new PermissionPrompts(() => this.flush());
  /** "Allow for this session" rules of this conversation; kept across follow-up runs, cleared on Reset. */
  readonly grants = new SessionGrants();
  /** The granted rules, for display (SessionGrants itself is not reactive). */
  grantedRules = $state.raw<string[]>([]);
  /** A mode chosen in Settings, over the scenario's, for the next run. */
  modeOverride = $state<PermissionMode | null>(null);
  usage = $derived(deriveUsage(this.shown));
  lastEvent = $derived(this.shown.at(-1));
  stage = $derived<StageNode | null>(this.lastEvent ? stageOf(this.lastEvent) : null);
  caption = $derived(this.lastEvent ? captionOf(this.lastEvent) : '');
  ended = $derived(ENDED.includes(this.status));
  // Getters, not $derived: they read `trust`, which the constructor sets after field initialisers run.
  get canStep(): boolean {
    if (this.cursor !== null) return !this.busy;
    if (this.hold(this.events.length)) return false;
    return !this.busy && !this.readOnly && !this.trust.blocking && (this.status === 'idle' || this.status === 'paused');
  }
  canPause = $derived(this.busy && this.status === 'running');
  canStop = $derived(this.status === 'running' || this.status === 'paused');
  get canSend(): boolean {
    return !this.busy && !this.readOnly && !this.trust.blocking && (this.status === 'idle' || this.ended);
  }

  // agents: messages typed while a run works, delivered by the loop at its next safe point
  readonly steering = new SteeringBox();
  /** A run is under way (running or paused): the prompt box queues instead of sending. */
  get canSteer(): boolean {
    return !this.readOnly && (this.status === 'running' || this.status === 'paused');
  }
  steer(text: string): void {
    if (this.canSteer) this.steering.push(text);
  }

  // workbench: the person edits the live sandbox (Files panel, terminal) between pulls
  /** Set by the session manager: writes a user event to the session log (with its snapshot). */
  onUserEvent: ((e: TraceEvent) => Promise<void>) | null = null;
  /** Why the live files cannot be edited now, in words; null when they can. */
  get editBlock(): string | null {
    if (this.readOnly) return 'another tab is writing this session, so it is read-only here';
    if (this.cursor !== null) return 'stepped back: these are the files as they were then; step to the end to edit';
    if (!this.sandbox) return 'the sandbox is still starting';
    if (this.events.length === 0) return 'the scenario’s files are written when the run starts: press Step (or send) first, then edit';
    if (this.busy) return 'the agent is working: pause or wait for it, then edit';
    return null;
  }
  /**
   * Records that the person changed `paths` of the live sandbox: a `sandbox.changed` event with
   * origin `user`, at the end of the log, so the panels, replays and step-back show it. The
   * agent reads the files themselves on its next call.
   */
  async recordUserChange(paths: string[]): Promise<void> {
    if (!paths.length) return;
    this.flush();
    // Between pulls: it shares the place (seq, turn) of the event before it, as the main agent's.
    const last = this.events.at(-1);
    const event: TraceEvent = { type: 'sandbox.changed', paths, origin: 'user', seq: last?.seq ?? 0, ts: Date.now(), agentId: 'main', turn: last?.turn ?? 0 };
    this.events = this.events.concat(event);
    await this.onUserEvent?.(event);
  }

  private gen: AsyncGenerator<TraceEvent, RunResult> | null = null;
  private abort: AbortController | null = null;
  private mode: DriveMode = 'step';
  private buffer: TraceEvent[] = [];
  private epoch = 0;
  private sandboxReady: Promise<Sandbox | null> | null = null;
  /** What the agent has read and snapshotted; carried across follow-up runs of one session. */
  private files = new FileState();
  /** A restored log whose reads the FileState has not learnt yet (see `restore-reads.ts`). */
  private seenToRestore: readonly TraceEvent[] | null = null;
  private jsRunner: JsHookRunner | null = null;

  constructor(
    scenario: Scenario,
    private readonly settings: ModelSettings,
    trustStore: TrustStore,
    origin: ScenarioOrigin = 'builtin',
    document?: unknown,
  ) {
    this.scenario = scenario;
    this.document = document ?? scenario;
    this.trust = new TrustGate(trustStore);
    void this.trust.evaluate(scenario, origin, this.document);
    this.bootSandbox();
  }

  /**
   * The rules and mode the next call would be judged by (trust applied, session grants added):
   * the starting point of what-if.
   */
  permissionContext(): PermissionContext {
    const settings = applyTrust(harnessSettingsOf(this.scenario), this.trust.trusted);
    const merged = mergeSettings([{ source: 'scenario', settings }]);
    const ctx = permissionContextOf(merged, this.sandbox?.workdir ?? WORKDIR, this.modeOverride ? { mode: this.modeOverride } : {});
    return { ...ctx, rules: [...ctx.rules, ...this.grants.rules] };
  }

  /** The user answered the trust dialog. Trusting after a run has started starts afresh, so no run mixes both. */
  async answerTrust(trust: boolean): Promise<void> {
    await this.trust.answer(trust);
    if (trust && (this.events.length > 0 || this.busy)) await this.reset(undefined, { keepTrust: true });
  }

  /** The user's answer to `liveContext`: send what the document brings, run without it, or not run. */
  async answerLiveContext(choice: 'use' | 'drop' | 'cancel'): Promise<void> {
    const q = this.liveContext;
    if (!q) return;
    this.liveContext = null;
    this.notice = null;
    if (choice === 'cancel') return;
    this.liveContextAnswer = choice;
    await this.drive(q.mode === 'step' ? 'step' : 'run', q.pending);
  }

  /** Pull exactly one event. Starts the run first when there is none. */
  step(): Promise<void> {
    // Stepped back: step forward through what is already in the log before pulling anything new.
    if (this.cursor !== null) {
      this.cursor = this.cursor + 1 >= this.events.length ? null : this.cursor + 1;
      return Promise.resolve();
    }
    return this.drive('step');
  }

  /** Pull until the run ends or `pause()` is called (or, with `stopWhen`, an event it matches). */
  run(stopWhen?: StopWhen): Promise<void> {
    if (this.busy) return Promise.resolve();
    this.cursor = null;
    this.stopWhen = stopWhen ?? null;
    return this.drive('run');
  }

  /**
   * Continue as a fork: drop the pending generator (without its closing events) and start a run
   * on `messages` as the whole history, in the same sandbox and event log. `model` replaces the
   * scenario's (e.g. one that first replays an edited turn). Pulls the new `run.start` and pauses.
   */
  async fork(messages: Message[], opts: { model?: ModelClient; live?: boolean } = {}): Promise<void> {
    if (this.busy || this.readOnly) return;
    this.abort?.abort();
    this.prompts.cancel('the run was forked');
    const old = this.gen;
    this.gen = null;
    this.buffer = [];
    this.cursor = null;
    if (opts.live) this.takenOver = true;
    void old?.return(undefined as never).catch(() => {});
    await this.drive('step', { history: messages, messages, ...(opts.model ? { model: opts.model } : {}) });
  }

  /** Stop after the pull in flight; the run can continue later. */
  pause(): void {
    if (this.mode === 'run') this.mode = 'pause';
  }

  /** Abort the run and pull its closing events until the generator ends. */
  async stop(): Promise<void> {
    if (!this.canStop) return;
    this.abort?.abort();
    this.prompts.cancel('the user stopped the run');
    if (this.busy) {
      this.mode = 'drain';
      return;
    }
    await this.drive('drain');
  }

  /** Send a prompt: the first one of a session, or a follow-up after a run has ended. */
  async send(prompt: string): Promise<void> {
    const text = prompt.trim();
    if (!text || !this.canSend) return;
    await this.drive('run', { prompt: text, history: this.result?.messages ?? [] });
  }

  /**
   * Throw the run and its sandbox away and start fresh (optionally with another scenario, which
   * goes through the trust gate unless it is a built-in). Session grants end with the conversation.
   */
  async reset(scenario?: Scenario, opts: { origin?: ScenarioOrigin; keepTrust?: boolean; document?: unknown } = {}): Promise<void> {
    this.onReset?.();
    this.epoch++;
    this.abort?.abort();
    this.prompts.cancel('the run was reset');
    this.readOnly = false;
    this.nextSessionStart = null;
    this.cursor = null;
    this.takenOver = false;
    this.lastModel = null;
    this.liveContext = null;
    this.liveContextAnswer = null;
    this.grants.clear();
    this.grantedRules = [];
    this.steering.clear();
    if (scenario) this.document = opts.document ?? scenario;
    if (scenario && !opts.keepTrust) void this.trust.evaluate(scenario, opts.origin ?? 'builtin', this.document);
    const oldGen = this.gen;
    const oldSandbox = this.sandboxReady;
    this.gen = null;
    this.abort = null;
    this.buffer = [];
    this.mode = 'step';
    if (scenario) this.scenario = scenario;
    this.events = [];
    this.result = null;
    this.memoryText = undefined;
    this.status = 'idle';
    this.notice = null;
    this.busy = false;
    this.phase = '';
    this.sandbox = null;
    this.sandboxInfo = null;
    this.files = new FileState();
    this.seenToRestore = null;
    // The old generator may still be awaiting; the abort lets it wind down on its own.
    void oldGen?.return(undefined as never).catch(() => {});
    void oldSandbox?.then((s) => s?.dispose()).catch(() => {});
    this.bootSandbox();
  }

  /**
   * Shows a stored session (call after `reset`): its events and where it ended, so a follow-up
   * continues it from `result.messages` / `result.contextState`.
   */
  restore(s: { events: TraceEvent[]; result: RunResult; sessionStart: 'resume' | 'fork'; readOnly: boolean; memory?: string }): void {
    this.events = s.events;
    this.result = s.result;
    this.status = statusFor(s.result);
    this.readOnly = s.readOnly;
    this.nextSessionStart = s.sessionStart;
    this.memoryText = s.memory;
    // The history says what the agent read; the fresh FileState learns it before the next run.
    this.seenToRestore = s.events;
  }

  /** The sandbox of this conversation once booted (null when it failed). */
  whenSandbox(): Promise<Sandbox | null> {
    return this.sandboxReady ?? Promise.resolve(null);
  }

  private bootSandbox(): void {
    const epoch = this.epoch;
    this.sandboxReady = (async () => {
      const { chooseSandbox } = await import('../../sandbox/select.ts');
      // A scenario from a link or a file could ask for WebContainer, which loads code from
      // StackBlitz: nothing it asks for acts before trust, so it starts on just-bash.
      const fromOutside = this.trust.status !== 'builtin' && this.scenario.settings.sandbox !== 'just-bash';
      const chosen = await chooseSandbox(fromOutside ? 'just-bash' : this.scenario.settings.sandbox, {});
      if (fromOutside) chosen.reason = `this scenario came from outside the app and asks for ${this.scenario.settings.sandbox}; it runs on just-bash, which loads nothing from the network`;
      if (epoch !== this.epoch) {
        void chosen.sandbox.dispose();
        return null;
      }
      this.sandbox = chosen.sandbox;
      this.sandboxInfo = { kind: chosen.live, reason: chosen.reason };
      return chosen.sandbox;
    })().catch((err: unknown) => {
      if (epoch === this.epoch) this.notice = `The sandbox did not start: ${errorText(err)}. Press Reset to try again.`;
      return null;
    });
  }

  /** A client for the live model of the settings (wrapped by `wrapLive`, e.g. the recorder). */
  async liveClient(): Promise<ModelClient> {
    const client = await this.bareLiveClient();
    return this.wrapLive ? this.wrapLive(client) : client;
  }

  private async bareLiveClient(): Promise<ModelClient> {
    // Before the first call leaves: connect-src narrows to this endpoint (src/security/connect-lock.svelte.ts).
    lockConnectTo(this.settings.baseURL.trim());
    const { createAnthropicClient } = await import('../../model/anthropic/client.ts');
    return createAnthropicClient({
      apiKey: this.settings.apiKey.trim(),
      baseURL: this.settings.baseURL.trim(),
      dangerouslyAllowBrowser: true,
    });
  }

  /** Creates the generator. Returns false (with a notice) when the run cannot start. */
  private async start(opts: StartOptions): Promise<boolean> {
    const epoch = this.epoch;
    const live = this.settings.live || this.takenOver;
    if (live && this.settings.liveProblem) {
      this.notice = this.settings.liveProblem;
      return false;
    }
    if (!live && this.scenario.model.kind === 'anthropic') {
      this.notice = 'This scenario needs a live model: choose "anthropic" as the model mode in Settings and add your API key.';
      return false;
    }
    this.phase = this.sandbox ? 'Preparing the run…' : 'Booting the sandbox…';
    const sandbox = await this.sandboxReady;
    if (epoch !== this.epoch) return false;
    if (!sandbox) {
      this.notice ??= 'The sandbox is not available. Press Reset to try again.';
      return false;
    }
    this.phase = 'Preparing the run…';
    // A follow-up in scripted mode continues the script where the last run left it, or says it has ended.
    const follow =
      !live && !opts.model && opts.history?.length && this.scenario.model.kind === 'scripted'
        ? scriptedFollowUp(this.lastModel, this.scenario.model.turns, this.events)
        : null;
    if (follow?.kind === 'ended') {
      this.notice = follow.message;
      this.phase = '';
      return false;
    }
    const continued = follow?.kind === 'continue' ? follow.model : undefined;
    const model = opts.model ?? (live ? await this.liveClient() : continued);
    if (this.trust.blocking) {
      this.notice = 'Answer the trust question first: nothing from this scenario runs before you do.';
      return false;
    }
    const brings = documentLiveContext(this.scenario);
    if (mustConfirmLiveContext({ live, trusted: this.trust.trusted, outside: this.trust.status !== 'builtin', brings, answered: this.liveContextAnswer !== null })) {
      this.liveContext = { brings: brings!, pending: opts, mode: this.mode };
      this.notice = 'This untrusted scenario would add its own system prompt or CLAUDE.md to what is sent with your key: choose at the top of the page whether to send them.';
      return false;
    }
    if (!this.jsRunner) {
      // JS hooks run in the opaque-origin user-code sandbox, never with the app's own origin.
      const { createFrameJsHookRunner } = await import('../../hooks-runtime/frame-runner.ts');
      this.jsRunner = createFrameJsHookRunner();
    }
    const abort = new AbortController();
    if (this.seenToRestore) {
      for (const path of pathsSeenInLog(this.seenToRestore, sandbox.workdir)) {
        const content = await sandbox.fs.readFile(path).catch(() => null);
        if (content !== null) this.files.recordRead(path, content);
      }
      this.seenToRestore = null;
    }
    const { input, deps } = await prepareRun({
      // After a reload the script resumes at the first turn not yet played.
      scenario: follow?.kind === 'resume' ? { ...this.scenario, model: { kind: 'scripted', turns: follow.turns } } : this.scenario,
      sandbox,
      model,
      ...(live ? { modelId: this.settings.modelId.trim(), countTokens: true } : { scriptedChunkDelayMs: SCRIPTED_CHUNK_DELAY_MS }),
      ...(follow?.kind === 'resume' ? { scriptedToolIdStart: follow.toolIdStart } : {}),
      prompt: opts.prompt,
      history: opts.history,
      // A follow-up continues the context pipeline where the last run left it (stored originals, collapses).
      ...(opts.history?.length && this.result ? { contextState: this.result.contextState } : {}),
      files: this.files,
      signal: abort.signal,
      // Built-in scenarios ship with the app, so what they bring is trusted; a link or an
      // imported file only once the user said so in the trust dialog.
      trusted: this.trust.trusted,
      ...(this.modeOverride ? { mode: this.modeOverride } : {}),
      askPermission: this.prompts.ask,
      sessionGrants: this.grants,
      jsRunner: this.jsRunner,
      memoryStore: browserMemoryStore(),
      ...memoryContext(this.scenario, this.document, this.trust.documentHash, opts.prompt, this.sessionIdOf),
      // Memory is chosen at the first prompt and kept for follow-ups (message 0 stays cache-stable).
      ...(opts.history?.length && this.memoryText !== undefined ? { memory: this.memoryText } : {}),
      ...(this.nextSessionStart ? { sessionStart: this.nextSessionStart } : {}),
      skillFiles: bundledSkillFiles,
      steering: this.steering.queue,
      // A live model gets every agent tool; a scripted replay only what its scenario opted into.
      ...(live ? { agentTools: ALL_AGENT_FEATURES } : {}),
      ...(live && this.liveContextAnswer === 'drop' ? { documentContext: 'drop' as const } : {}),
      // MCP servers: the panel's and the project's .mcp.json (src/ui/mcp/).
      ...(await mcpSession.runOptions(sandbox, this.scenario.files)),
    });
    if (epoch !== this.epoch) return false;
    if (!opts.history?.length) this.memoryText = input.memory ?? '';
    // A fork brings its whole history (the prompt is already in it).
    if (opts.messages) input.messages = opts.messages;
    this.lastModel = deps.model;
    this.abort = abort;
    this.result = null;
    this.nextSessionStart = null;
    const loop = agentLoop(input, deps);
    const info = { sandbox, newConversation: !opts.history?.length, prompt: opts.prompt ?? this.scenario.prompt };
    this.gen = this.wrapRun ? this.wrapRun(loop, info) : loop;
    return true;
  }

  private async drive(mode: DriveMode, startWith?: StartOptions): Promise<void> {
    if (this.busy) return;
    if (!startWith && !(this.status === 'idle' || this.status === 'paused' || mode === 'drain')) return;
    if (this.trust.blocking && !this.gen && mode !== 'drain') return;
    if (this.readOnly && mode !== 'drain') return;
    if (mode !== 'drain' && !startWith) {
      const held = this.hold(this.events.length);
      if (held) {
        this.notice = held;
        return;
      }
    }
    const epoch = this.epoch;
    this.busy = true;
    this.mode = mode;
    this.notice = null;
    const prevStatus = this.status;
    this.status = 'running';
    let lastPaint = performance.now();
    try {
      if (!this.gen) {
        const ok = await this.start(startWith ?? {});
        if (epoch !== this.epoch) return;
        this.phase = '';
        if (!ok) {
          this.status = prevStatus;
          return;
        }
        // Stop was pressed while the run was still starting: abort it as soon as it exists.
        if (this.mode === 'drain') this.abort?.abort();
      }
      for (;;) {
        const before = this.events.length + this.buffer.length;
        const more = await this.pullOne(epoch);
        if (epoch !== this.epoch) return;
        if (!more || this.mode === 'step' || this.mode === 'pause') break;
        if (this.mode === 'run' && this.stopsHere(before)) break;
        // The next pull may wait long (a tool running, the model thinking): show what led up to it now.
        const waitsNext = WAITS_AFTER.has(this.buffer.at(-1)?.type ?? '');
        if (waitsNext || performance.now() - lastPaint > FRAME_MS) {
          this.flush();
          await new Promise((r) => setTimeout(r, 0));
          if (epoch !== this.epoch) return;
          lastPaint = performance.now();
        }
      }
    } catch (err) {
      if (epoch !== this.epoch) return;
      this.gen = null;
      this.status = 'error';
      this.notice = `The run failed unexpectedly: ${errorText(err)}. Press Reset to start again.`;
    } finally {
      if (epoch === this.epoch) {
        this.flush();
        this.phase = '';
        this.busy = false;
        if (this.status === 'running') this.status = this.gen ? 'paused' : this.status;
      }
    }
  }

  /** A breakpoint matched one of the events pulled after log length `before`, or a lesson holds. */
  private stopsHere(before: number): boolean {
    const length = this.events.length + this.buffer.length;
    if (this.hold(length)) return true;
    const stopWhen = this.stopWhen;
    if (!stopWhen) return false;
    // A permission prompt flushes mid-pull, so the new events may be partly in `events` already.
    const n = length - before;
    const fresh = n <= this.buffer.length ? this.buffer.slice(this.buffer.length - n) : [...this.events.slice(before), ...this.buffer];
    return fresh.some((e, i) => stopWhen(e, before + i + 1));
  }

  /** One `next()`; after `run.end` the generator's return value is collected too. */
  private async pullOne(epoch: number): Promise<boolean> {
    const gen = this.gen;
    if (!gen) return false;
    const r = await gen.next();
    if (epoch !== this.epoch) return false;
    if (r.done) {
      this.finish(r.value);
      return false;
    }
    this.buffer.push(r.value);
    // The main run's end (a subagent's run.end is just another event of the stream).
    if (r.value.type === 'run.end' && r.value.agentId === 'main') {
      const last = await gen.next();
      if (epoch !== this.epoch) return false;
      if (last.done) {
        this.finish(last.value);
        return false;
      }
      this.buffer.push(last.value);
    }
    return true;
  }

  private finish(result: RunResult): void {
    this.gen = null;
    this.abort = null;
    this.result = result;
    this.status = statusFor(result);
    this.steering.runEnded();
  }

  private flush(): void {
    // The pipeline adds "allow for this session" rules itself; mirror them for display.
    if (this.grants.rules.length !== this.grantedRules.length) this.grantedRules = this.grants.rules.map((r) => r.rule.text);
    if (!this.buffer.length) return;
    this.events = this.events.concat(this.buffer);
    this.buffer = [];
  }
}
