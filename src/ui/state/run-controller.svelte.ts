/**
 * One conversation with a scenario and the person's actions on it (step, run, pause, stop, send,
 * fork, reset, restore). Composed, not layered:
 * - `state: RunState` — everything the conversation owns; `reset()` replaces it whole;
 * - `puller: RunPuller` — the pull loop over the agent loop's generator (one pull in flight);
 * - `starter: RunStarter` — how a run starts (`start-run.ts` for the page, the teammate tab's own);
 * - `hooks: RunHooks` — what the page plugs in (session recording, recorder, lesson), given at
 *   construction (`page-state.svelte.ts` writes them); nothing assigns them later.
 * Panels read the conversation through the getters below (`ctl.events`, `ctl.status` …) and what
 * derives from it (conversation, permission stages, hooks, usage, stage, caption).
 */
import { money } from './money.svelte.ts';
import type { Message, ModelClient, RunResult, Sandbox, TraceEvent, TrustStore } from '../../harness/index.ts';
import type { PermissionContext, PermissionMode } from '../../harness/permissions/index.ts';
import type { Settings } from '../../harness/settings/index.ts';
import { teammateLinkUrl } from '../team/teammate-link.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { permissionContextNow } from './run-permissions.ts';
import type { Workbench } from '../sessions/workbench-record.ts';
import { PermissionPrompts } from './permission-prompts.svelte.ts';
import type { ModelSettings } from './settings.svelte.ts';
import { TrustGate, type ScenarioOrigin } from './trust-gate.svelte.ts';
import { RunPuller, flush, type PullHost } from './run-puller.ts';
import { RunState } from './run-state.svelte.ts';
import { bareLiveClient, bootRunSandbox } from './run-sandbox.ts';
import { PageRunners, runNeedsOf, type RunStarter } from './run-starter.ts';
import { firstWorkerGate, lazyScenarioRun, prefetchStartRun } from './lazy-start.ts';
import { appendUserEvent, editBlockOf, terminalCommandEvent, userChangeEvent, type TerminalCommand } from './workbench-edits.ts';
import { deriveConversation } from './conversation.ts';
import { derivePermissions, deriveHookRows } from './safety.ts';
import { captionOf, stageOf, type StageNode } from './stage.ts';
import { deriveUsage } from './usage.ts';
import { ENDED, statusFor, type FilesAt, type RunHooks, type RunSessionPort, type RunStatus, type StartOptions, type StopWhen } from './run-types.ts';
import { prefetchRunModules } from './run-modules.ts';

// The public names of this module stay here: components import them from the controller.
export type { RunStatus, SandboxInfo, FilesAt, StopWhen, RunWrapper, RunHooks } from './run-types.ts';

export type RunControllerOptions = {
  scenario: Scenario;
  settings: ModelSettings;
  trustStore: TrustStore;
  /** Where the scenario came from (trust): a built-in unless said otherwise. */
  origin?: ScenarioOrigin;
  /** The whole document the scenario came from (a v1 scenario: every prompt, lessons); default the scenario. */
  document?: unknown;
  hooks?: RunHooks;
  /** How a run starts; default the page's (`start-run.ts`, loaded by `lazy-start.ts`). */
  starter?: RunStarter;
};

export class RunController implements PullHost {
  /** The conversation on screen; replaced whole by `reset()` (see `run-state.svelte.ts`). */
  state = $state.raw(new RunState());
  scenario = $state.raw<Scenario>() as Scenario;
  /** The whole document the scenario came from: trust and memory origins key to it. */
  document: unknown;
  /** Whether what the scenario brings (hooks, allow rules, permissive mode) applies. */
  readonly trust: TrustGate;
  readonly settings: ModelSettings;
  readonly hooks: RunHooks;
  readonly session: RunSessionPort | null;
  /** The question the permission dialog shows (the pipeline awaits its answer). */
  readonly prompts = new PermissionPrompts(() => flush(this.state));
  /** The page's hook and tool runners, kept across conversations. */
  readonly runners = new PageRunners();
  /** A mode chosen in Settings, over the scenario's, for the next run. */
  modeOverride = $state<PermissionMode | null>(null);
  /** devkit: the user-scope settings of an imported `~/.claude/` (`ui/workbench/user-scope.svelte.ts`). */
  userSettings = $state.raw<Settings | null>(null);
  /** Whether what the user scope can do (hooks, allow rules, modes) applies; its deny and ask rules always do. */
  userSettingsTrusted = $state(false);
  /**
   * The session that was open before a reload is being read back (SessionManager.init): nothing
   * may start until it is on screen, or a run started now would mix into the restored session.
   */
  restoring = $state(false);
  /**
   * The sandbox files as of the `count`-th event (the Files panel when stepped back), from the
   * session recording's snapshots. Null: nothing records them.
   */
  readonly filesAt: ((count: number) => Promise<FilesAt>) | null;
  private readonly puller: RunPuller;
  private readonly starter: RunStarter;

  constructor(o: RunControllerOptions) {
    this.settings = o.settings;
    this.hooks = o.hooks ?? {};
    const session = this.hooks.session ?? null;
    this.session = session;
    this.filesAt = session ? (count) => session.filesAt(count) : null;
    // The page's starter loads the harness on demand (`lazy-start.ts`); the first screen does not carry it.
    this.starter = o.starter ?? lazyScenarioRun;
    if (!o.starter) prefetchStartRun();
    // On a first visit the sandbox's worker waits for the harness (`firstWorkerGate`); a teammate tab's does not.
    const spawnAfter = o.starter ? undefined : firstWorkerGate();
    this.scenario = o.scenario;
    this.document = o.document ?? o.scenario;
    this.trust = new TrustGate(o.trustStore);
    this.puller = new RunPuller(this);
    void this.trust.evaluate(o.scenario, o.origin ?? 'builtin', this.document);
    this.bootSandbox(undefined, spawnAfter);
  }

  // What the pull loop asks of its host (`PullHost`).
  get blocked(): boolean {
    return this.trust.blocking;
  }
  /** Why pulling must wait (a lesson question) at log length `n`, or null. */
  hold(n: number): string | null {
    return this.hooks.hold?.(n) ?? null;
  }
  startRun(run: RunState, opts: StartOptions): Promise<boolean> {
    return this.starter(this, run, opts);
  }

  // The conversation's fields, as the panels read them.
  get status(): RunStatus { return this.state.status; }
  get events(): TraceEvent[] { return this.state.events; }
  get result(): RunResult | null { return this.state.result; }
  get sandbox(): Sandbox | null { return this.state.sandbox; }
  get sandboxInfo() { return this.state.sandboxInfo; }
  get phase(): string { return this.state.phase; }
  get busy(): boolean { return this.state.busy; }
  get notice(): string | null { return this.state.notice; }
  get readOnly(): boolean { return this.state.readOnly; }
  get cursor(): number | null { return this.state.cursor; }
  set cursor(v: number | null) { this.state.cursor = v; }
  get takenOver(): boolean { return this.state.takenOver; }
  set takenOver(v: boolean) { this.state.takenOver = v; }
  get liveContext() { return this.state.liveContext; }
  get grantedRules(): string[] { return this.state.grantedRules; }
  get progress() { return this.state.progress; }
  get teamTabs() { return this.state.teamTabs; }
  get lastModel(): ModelClient | null { return this.state.lastModel; }
  get steering() { return this.state.steering; }
  get grants() { return this.state.grants; }
  /** Runs use the live model: the settings say so, or the person took over (until Reset). */
  get live(): boolean { return this.settings.live || this.state.takenOver; }

  /** The events the panels render: the whole log, or the log up to the cursor. */
  shown = $derived(this.cursor === null ? this.events : this.events.slice(0, this.cursor));
  ended = $derived(ENDED.includes(this.status));
  // At the end of the log of a run that is over, a call with no result was cut off, not pending.
  conversation = $derived(deriveConversation(this.shown, { settled: this.cursor === null && this.ended, prices: money.prices }));
  /** Permission stages per tool call, and the hooks timeline. */
  permissions = $derived(derivePermissions(this.shown));
  hookRows = $derived(deriveHookRows(this.shown));
  usage = $derived(deriveUsage(this.shown));
  lastEvent = $derived(this.shown.at(-1));
  stage = $derived<StageNode | null>(this.lastEvent ? stageOf(this.lastEvent) : null);
  caption = $derived(this.lastEvent ? captionOf(this.lastEvent) : '');

  /** The scenario's next prompt, offered (pre-filled) once a run has ended (the lesson). */
  get followUp(): string | null {
    return this.hooks.followUp?.() ?? null;
  }

  /** The link a second tab opens to be `name`, a teammate of the latest run (built-in scenarios only). */
  joinUrl(name: string): string | null {
    const tabs = this.teamTabs;
    if (!tabs || this.trust.status !== 'builtin') return null;
    return teammateLinkUrl(location, { name, channel: tabs.channel, scenario: this.scenario.id, lead: tabs.tab, key: tabs.key });
  }

  /** The replay of a run a reload cut off, when it can be played now (the restored log shows "aborted"). */
  private get cutReplay(): (() => Promise<void>) | null {
    const replay = this.hooks.replayCut?.() ?? null;
    return replay && this.status === 'aborted' && this.cursor === null && !this.busy && !this.restoring && !this.trust.blocking ? replay : null;
  }

  get canStep(): boolean {
    if (this.cutReplay) return true;
    if (this.cursor !== null) return !this.busy;
    if (this.hold(this.events.length)) return false;
    return !this.busy && !this.readOnly && !this.restoring && !this.trust.blocking && (this.status === 'idle' || this.status === 'paused');
  }
  get canPause(): boolean { return this.busy && this.status === 'running'; }
  get canStop(): boolean { return this.status === 'running' || this.status === 'paused'; }
  get canSend(): boolean {
    return !this.busy && !this.readOnly && !this.restoring && !this.trust.blocking && (this.status === 'idle' || this.ended);
  }

  /** A run is under way (running or paused): the prompt box queues instead of sending. */
  get canSteer(): boolean {
    return !this.readOnly && (this.status === 'running' || this.status === 'paused');
  }
  steer(text: string): void {
    if (this.canSteer) this.steering.push(text);
  }

  /** The page's workbench now: the scenario and where it came from. */
  workbench(): Workbench {
    return { scenario: this.scenario, origin: this.trust.origin };
  }

  // workbench: the person edits the live sandbox (Files panel, terminal) between pulls
  /** Why the live files cannot be edited now, in words; null when they can. */
  get editBlock(): string | null {
    return editBlockOf(this);
  }
  /**
   * Records that the person changed `paths` of the live sandbox: a `sandbox.changed` event with
   * origin `user`. The agent reads the files themselves on its next call.
   */
  async recordUserChange(paths: string[]): Promise<void> {
    if (paths.length) await appendUserEvent(this.state, this.session, (last) => userChangeEvent(paths, last));
  }
  /** devkit: a command the person ran in the terminal, then the files it changed (user events, see `ui/terminal/`). */
  async recordTerminalCommand(c: TerminalCommand): Promise<void> {
    await appendUserEvent(this.state, this.session, (last) => terminalCommandEvent(c, last));
    await this.recordUserChange(c.changed);
  }

  /**
   * The person edited the scenario in the page (a custom tool, a golden case): it replaces the
   * loaded one without a reset, the next request carries it, and the session records it.
   */
  editScenario(next: Scenario): void {
    this.scenario = next;
    this.session?.scenarioEdited(this.workbench());
  }

  /** The secrets in use (the API key) that nothing leaving the page or stored may hold: links, exports, kept cases. */
  secrets(): string[] {
    return [this.settings.apiKey].filter((s) => s.trim() !== '');
  }
  /**
   * The key a user scope's trust is kept under for the document in use ('' while the document's
   * own key is being worked out): a built-in by its id, anything else by its document key. A user
   * scope trusted for one document does not act in another (`ui/workbench/user-scope.svelte.ts`).
   */
  get documentTrustKey(): string {
    return this.trust.status === 'builtin' ? `builtin:${this.scenario.id}` : this.trust.documentHash;
  }

  /** The rules and mode the next call would be judged by: the starting point of what-if (`run-permissions.ts`). */
  permissionContext(): PermissionContext {
    return permissionContextNow(this);
  }

  /** The user answered the trust dialog. Trusting after a run has started starts afresh, so no run mixes both. */
  async answerTrust(trust: boolean): Promise<void> {
    // Trusting the document never trusts a user scope: that is its own question (the Workbench tab).
    await this.trust.answer(trust);
    if (trust && (this.events.length > 0 || this.busy)) await this.reset(undefined, { keepTrust: true });
  }

  /** The user's answer to `liveContext`: send what the document brings, run without it, or not run. */
  async answerLiveContext(choice: 'use' | 'drop' | 'cancel'): Promise<void> {
    const run = this.state;
    const q = run.liveContext;
    if (!q) return;
    run.liveContext = null;
    run.notice = null;
    if (choice === 'cancel') return;
    run.liveContextAnswer = choice;
    await this.puller.drive(q.mode === 'step' ? 'step' : 'run', q.pending);
  }

  /** Pull exactly one event. Starts the run first when there is none. */
  async step(): Promise<void> {
    // After a reload cut the run: play it again to where it was, then this Step pulls the next event.
    const replay = this.cutReplay;
    if (replay) {
      await replay();
      if (this.status !== 'paused') return;
    }
    // Stepped back: step forward through what is already in the log before pulling anything new.
    if (this.cursor !== null) {
      this.cursor = this.cursor + 1 >= this.events.length ? null : this.cursor + 1;
      return;
    }
    return this.puller.drive('step');
  }

  /** Pull until the run ends or `pause()` is called (or, with `stopWhen`, an event it matches). */
  async run(stopWhen?: StopWhen): Promise<void> {
    const replay = this.cutReplay;
    if (replay) {
      await replay();
      if (this.status !== 'paused') return;
    }
    if (this.busy) return;
    this.cursor = null;
    this.puller.stopWhen = stopWhen ?? null;
    return this.puller.drive('run');
  }

  /**
   * Continue as a fork: drop the pending generator (without its closing events) and start a run
   * on `messages` as the whole history, in the same sandbox and event log. `model` replaces the
   * scenario's (e.g. one that first replays an edited turn). Pulls the new `run.start` and pauses.
   */
  async fork(messages: Message[], opts: { model?: ModelClient; live?: boolean } = {}): Promise<void> {
    const run = this.state;
    if (run.busy || run.readOnly) return;
    run.abort?.abort();
    this.prompts.cancel('the run was forked');
    const old = run.gen;
    run.gen = null;
    run.buffer = [];
    run.cursor = null;
    if (opts.live) run.takenOver = true;
    void old?.return(undefined as never).catch(() => {});
    await this.puller.drive('step', { history: messages, messages, ...(opts.model ? { model: opts.model } : {}) });
  }

  /** Stop after the pull in flight; the run can continue later. */
  pause(): void {
    if (this.state.mode === 'run') this.state.mode = 'pause';
  }

  /** Abort the run and pull its closing events until the generator ends. */
  async stop(): Promise<void> {
    if (!this.canStop) return;
    this.state.abort?.abort();
    this.prompts.cancel('the user stopped the run');
    if (this.busy) {
      this.state.mode = 'drain';
      return;
    }
    await this.puller.drive('drain');
  }

  /** Send a prompt: the first one of a session, or a follow-up after a run has ended. */
  async send(prompt: string): Promise<void> {
    const text = prompt.trim();
    if (!text || !this.canSend) return;
    await this.puller.drive('run', { prompt: text, history: this.result?.messages ?? [] });
  }

  /**
   * Throw the conversation and its sandbox away and start fresh (optionally with another scenario,
   * which goes through the trust gate unless it is a built-in): a new `RunState`, so nothing of the
   * old conversation stays (session grants, steering, background hooks, the live-context answer…).
   */
  async reset(scenario?: Scenario, opts: { origin?: ScenarioOrigin; keepTrust?: boolean; document?: unknown } = {}): Promise<void> {
    this.session?.runReset();
    const old = this.state;
    this.state = new RunState();
    old.abort?.abort();
    this.prompts.cancel('the run was reset');
    old.teamTabs?.close();
    const oldSandbox = this.scenario.settings.sandbox;
    if (scenario) this.document = opts.document ?? scenario;
    if (scenario && !opts.keepTrust) void this.trust.evaluate(scenario, opts.origin ?? 'builtin', this.document);
    if (scenario) this.scenario = scenario;
    // The old generator may still be awaiting; the abort lets it wind down on its own.
    void old.gen?.return(undefined as never).catch(() => {});
    const disposed = (old.sandboxReady ?? Promise.resolve(null)).then((s) => s?.dispose()).catch(() => {});
    // just-bash to just-bash (a switch in the picker right after the page booted the default
    // scenario's sandbox): the new boot waits for the old worker, which comes back unused, instead
    // of compiling just-bash a second time beside it. Never behind a WebContainer boot.
    this.bootSandbox(oldSandbox === 'just-bash' && this.scenario.settings.sandbox === 'just-bash' ? disposed : undefined);
  }

  /**
   * Shows a stored session (call after `reset`): its events and where it ended, so a follow-up
   * continues it from `result.messages` / `result.contextState`.
   */
  restore(s: { events: TraceEvent[]; result: RunResult; sessionStart: 'resume' | 'fork'; readOnly: boolean; memory?: string }): void {
    const run = this.state;
    run.events = s.events;
    run.result = s.result;
    run.status = statusFor(s.result);
    run.readOnly = s.readOnly;
    run.nextSessionStart = s.sessionStart;
    run.memoryText = s.memory;
    // The history says what the agent read; the fresh FileState learns it before the next run.
    run.seenToRestore = s.events;
    this.hooks.restored?.(s.events);
  }

  /** The sandbox of this conversation once booted (null when it failed). */
  whenSandbox(): Promise<Sandbox | null> {
    return this.state.sandboxReady ?? Promise.resolve(null);
  }

  private bootSandbox(after?: Promise<void>, spawnAfter?: Promise<void>): void {
    const run = this.state;
    // While the sandbox boots, the runners this scenario needs load at idle time: the first Step finds them ready.
    prefetchRunModules(runNeedsOf(this.scenario, this.userSettings, this.live));
    bootRunSandbox(run, this.scenario, () => this.trust.status === 'builtin', () => run === this.state, after, spawnAfter);
  }

  /** A client for the live model of the settings (wrapped by the `wrapLive` hook, e.g. the recorder). */
  async liveClient(): Promise<ModelClient> {
    const client = await bareLiveClient(this.settings);
    return this.hooks.wrapLive ? this.hooks.wrapLive(client) : client;
  }
}
