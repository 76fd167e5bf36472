/**
 * One run of a scenario and the actions on it (step, run, pause, stop, send, fork, reset,
 * restore). The class is layered by concern:
 * - `run-view.svelte.ts`: the event log and what the panels derive from it;
 * - `run-puller.svelte.ts`: the pull loop over the agent loop's generator (one pull in flight);
 * - this file: starting a run (trust, live context, the scripted follow-up, `prepareRun`) and
 *   the user's actions. Sandbox boot and the live client are in `run-sandbox.ts`; editing the
 *   live files in `workbench-edits.ts`.
 */
import { money } from './money.svelte.ts';
import type { JsHookRunner, Message, ModelClient, RunResult, Sandbox, TrustStore } from '../../harness/index.ts';
import type { UserToolRunner } from '../../harness/ports.ts';
import { FileState } from '../../harness/index.ts';
import { AsyncHookInbox } from '../../harness/hooks/index.ts';
import { createPageHttpHookClient } from './page-http-hook-client.ts';
import { hookEndpoints } from './hook-endpoints.svelte.ts';
import type { PermissionContext, PermissionMode } from '../../harness/permissions/index.ts';
import { mergeSettings, permissionContextOf, type Settings } from '../../harness/settings/index.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import { applyTrust } from '../../harness/trust/index.ts';
import { scriptedFollowUp } from './scripted-follow-up.ts';
import { lastRunCleared, needsNoModel } from '../../harness/commands/index.ts';
import { learnReadsOf } from './restore-reads.ts';
import { prepareRun, runPrepared } from '../../run/prepare.ts';
import { TabChannel, tabsAvailable, teammateLinkUrl } from '../team/tab-link.ts';
import { harnessSettingsOf, type Scenario } from '../../scenarios/schema.ts';
import { PermissionPrompts } from './permission-prompts.svelte.ts';
import type { ModelSettings } from './settings.svelte.ts';
import { TrustGate, type ScenarioOrigin } from './trust-gate.svelte.ts';
import { browserMemoryStore } from '../memory/browser-store.ts';
import { memoryContext } from './run-memory.ts';
import { documentLiveContext, mustConfirmLiveContext, type DocumentLiveContext } from '../../run/live-context.ts';
import { bundledSkillFiles } from '../../skills-bundle/vite.ts';
import { liveAgentFeatures } from '../../run/prepare-agents.ts';
import { RunPuller } from './run-puller.svelte.ts';
import { bareLiveClient, bootScenarioSandbox } from './run-sandbox.ts';
import { editBlockOf, userChangeEvent } from './workbench-edits.ts';
import { errorText, statusFor, WORKDIR, type DriveMode, type FilesAt, type RunWrapper, type StartOptions, type StopWhen } from './run-types.ts';
import { mcpSession } from '../mcp/mcp-session.svelte.ts';
import { frameRunnerModule, needsJsHooks, needsToolRunner, pageToolModule, prefetchRunModules, type RunNeeds } from './run-modules.ts';

// The public names of this module stay here: components import them from the controller.
export type { RunStatus, SandboxInfo, FilesAt, StopWhen, RunWrapper } from './run-types.ts';

/** Pause between streamed chunks of a scripted reply, so text visibly streams when running. */
const SCRIPTED_CHUNK_DELAY_MS = 12;

export class RunController extends RunPuller {
  scenario = $state.raw<Scenario>() as Scenario;
  /** Whether what the scenario brings (hooks, allow rules, permissive mode) applies. */
  readonly trust: TrustGate;
  /** The memory text of this conversation's first run, reused by its follow-ups. */
  private memoryText: string | undefined = undefined;
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
  /** The model client of the latest run: a fork or the scenario's next prompt continues its script. */
  lastModel: ModelClient | null = null;
  /** Wraps every live client before a run uses it (the recorder). */
  wrapLive: ((client: ModelClient) => ModelClient) | null = null;
  /** After "take over", runs use the live model even in scripted mode, until Reset. */
  takenOver = $state(false);
  /** The scenario's next prompt, offered (pre-filled) once a run has ended; set by the lesson. */
  followUp = $state<string | null>(null);
  /** The question the permission dialog shows (the pipeline awaits its answer). */
  readonly prompts = new PermissionPrompts(() => this.flush());
  /** A mode chosen in Settings, over the scenario's, for the next run. */
  modeOverride = $state<PermissionMode | null>(null);
  /** The latest run's team on a tab channel (other tabs join its `in_tab` teammates); null without a team. */
  teamTabs = $state.raw<TabChannel | null>(null);
  /** The link a second tab opens to be `name`, a teammate of the latest run (built-in scenarios only). */
  joinUrl(name: string): string | null {
    if (!this.teamTabs || this.trust.status !== 'builtin') return null;
    return teammateLinkUrl(location, { name, channel: this.teamTabs.channel, scenario: this.scenario.id, lead: this.teamTabs.tab, key: this.teamTabs.key });
  }
  private closeTeamTabs(): void {
    this.teamTabs?.close();
    this.teamTabs = null;
  }

  /**
   * Set by the page when the restored session is a run a reload cut off and its replay is
   * deterministic (a built-in script): plays it again to where it was cut and pauses there. While
   * set, Step and Run start with it, so a returning visitor is one click from stepping on.
   */
  replayCut = $state.raw<(() => Promise<void>) | null>(null);
  /** The cut run can be replayed now (the restored log shows "aborted"). */
  private get cutReplayable(): boolean {
    return !!this.replayCut && this.status === 'aborted' && this.cursor === null && !this.busy && !this.restoring && !this.trust.blocking;
  }
  /** Replays the cut run (once) before a Step or Run continues from where it was. */
  private async replayTheCut(): Promise<void> {
    const replay = this.replayCut;
    this.replayCut = null;
    await replay?.();
  }

  // Getters, not $derived: they read `trust`, which the constructor sets after field initialisers run.
  get canStep(): boolean {
    if (this.cutReplayable) return true;
    if (this.cursor !== null) return !this.busy;
    if (this.hold(this.events.length)) return false;
    return !this.busy && !this.readOnly && !this.restoring && !this.trust.blocking && (this.status === 'idle' || this.status === 'paused');
  }
  canPause = $derived(this.busy && this.status === 'running');
  canStop = $derived(this.status === 'running' || this.status === 'paused');
  get canSend(): boolean {
    return !this.busy && !this.readOnly && !this.restoring && !this.trust.blocking && (this.status === 'idle' || this.ended);
  }
  protected get blocked(): boolean {
    return this.trust.blocking;
  }

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
    return editBlockOf(this);
  }
  /**
   * Records that the person changed `paths` of the live sandbox: a `sandbox.changed` event with
   * origin `user`, at the end of the log, so the panels, replays and step-back show it. The
   * agent reads the files themselves on its next call.
   */
  async recordUserChange(paths: string[]): Promise<void> {
    if (!paths.length) return;
    this.flush();
    const event = userChangeEvent(paths, this.events.at(-1));
    this.events = this.events.concat(event);
    await this.onUserEvent?.(event);
  }

  /** Set by the session manager: the scenario was edited in the page (it records the new workbench). */
  onScenarioEdited: (() => void) | null = null;
  /**
   * The person edited the scenario in the page (a custom tool, a golden case): it replaces the
   * loaded one without a reset, the next request carries it, and the session records it.
   */
  editScenario(next: Scenario): void {
    this.scenario = next;
    this.onScenarioEdited?.();
  }

  /**
   * devkit: the user-scope settings of an imported `~/.claude/`, for every run until cleared
   * (saved in this browser by `ui/workbench/user-scope.svelte.ts`).
   */
  userSettings = $state.raw<Settings | null>(null);
  /** Whether what the user scope can do (hooks, allow rules, modes) applies; its deny and ask rules always do. */
  userSettingsTrusted = $state(false);
  /**
   * The key a user scope's trust is kept under for the document in use ('' while the document's
   * own key is being worked out): a built-in by its id, anything else by its document key. A user
   * scope trusted for one document does not act in another (`ui/workbench/user-scope.svelte.ts`).
   */
  /** The secrets in use (the API key) that nothing leaving the page or stored may hold: links, exports, kept cases. */
  secrets(): string[] {
    return [this.settings.apiKey].filter((s) => s.trim() !== '');
  }

  get documentTrustKey(): string {
    return this.trust.status === 'builtin' ? `builtin:${this.scenario.id}` : this.trust.documentHash;
  }
  /** The permission context the latest run was prepared with (what-if starts from it); cleared by Reset. */
  private runPermissions: PermissionContext | null = null;

  /** devkit: a command the person ran in the terminal, then the files it changed (user events, see `ui/terminal/`). */
  async recordTerminalCommand(c: { command: string; exitCode: number; interrupted: boolean; ms: number; changed: string[] }): Promise<void> {
    this.flush();
    const last = this.events.at(-1);
    const { changed, ...body } = c;
    const event: TraceEvent = { type: 'terminal.command', ...body, seq: last?.seq ?? 0, ts: Date.now(), agentId: 'main', turn: last?.turn ?? 0 };
    this.events = this.events.concat(event);
    await this.onUserEvent?.(event);
    await this.recordUserChange(changed);
  }

  private sandboxReady: Promise<Sandbox | null> | null = null;
  /** What the agent has read and snapshotted; carried across follow-up runs of one session. */
  private files = new FileState();
  /** A restored log whose reads the FileState has not learnt yet (see `restore-reads.ts`). */
  private seenToRestore: readonly TraceEvent[] | null = null;
  private jsRunner: JsHookRunner | null = null;
  private readonly httpHooks = createPageHttpHookClient({ allowedOrigins: () => hookEndpoints().origins });
  private asyncHooks = new AsyncHookInbox();
  private toolRunner: UserToolRunner | null = null;

  constructor(
    scenario: Scenario,
    private readonly settings: ModelSettings,
    trustStore: TrustStore,
    origin: ScenarioOrigin = 'builtin',
    document?: unknown,
  ) {
    super();
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
    // devkit: once a run has started, the rules it really uses (the sandbox's .claude/ settings, an imported user scope).
    const run = this.runPermissions;
    if (run) return { ...run, mode: this.modeOverride ?? run.mode, rules: [...run.rules, ...this.grants.rules] };
    const settings = applyTrust(harnessSettingsOf(this.scenario), this.trust.trusted);
    const merged = mergeSettings([{ source: 'scenario', settings }]);
    const ctx = permissionContextOf(merged, this.sandbox?.workdir ?? WORKDIR, this.modeOverride ? { mode: this.modeOverride } : {});
    return { ...ctx, rules: [...ctx.rules, ...this.grants.rules] };
  }

  /** The user answered the trust dialog. Trusting after a run has started starts afresh, so no run mixes both. */
  async answerTrust(trust: boolean): Promise<void> {
    // Trusting the document never trusts a user scope: that is its own question (the Workbench tab).
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
  async step(): Promise<void> {
    // After a reload cut the run: play it again to where it was, then this Step pulls the next event.
    if (this.cutReplayable) {
      await this.replayTheCut();
      if (this.status !== 'paused') return;
    }
    // Stepped back: step forward through what is already in the log before pulling anything new.
    if (this.cursor !== null) {
      this.cursor = this.cursor + 1 >= this.events.length ? null : this.cursor + 1;
      return;
    }
    return this.drive('step');
  }

  /** Pull until the run ends or `pause()` is called (or, with `stopWhen`, an event it matches). */
  async run(stopWhen?: StopWhen): Promise<void> {
    if (this.cutReplayable) {
      await this.replayTheCut();
      if (this.status !== 'paused') return;
    }
    if (this.busy) return;
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
    // A new run (or the replay of the cut one, which starts with a reset): nothing cut is left to replay.
    this.replayCut = null;
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
    this.runPermissions = null;
    this.steering.clear();
    // A new session: background hooks of the old one never report into it.
    this.asyncHooks = new AsyncHookInbox();
    this.closeTeamTabs();
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
  /** Told when a stored session is on screen (the lesson restores its answers). */
  onRestored: ((events: TraceEvent[]) => void) | null = null;
  restore(s: { events: TraceEvent[]; result: RunResult; sessionStart: 'resume' | 'fork'; readOnly: boolean; memory?: string }): void {
    this.events = s.events;
    this.result = s.result;
    this.status = statusFor(s.result);
    this.readOnly = s.readOnly;
    this.nextSessionStart = s.sessionStart;
    this.memoryText = s.memory;
    // The history says what the agent read; the fresh FileState learns it before the next run.
    this.seenToRestore = s.events;
    this.onRestored?.(s.events);
  }

  /** The sandbox of this conversation once booted (null when it failed). */
  whenSandbox(): Promise<Sandbox | null> {
    return this.sandboxReady ?? Promise.resolve(null);
  }

  /** What decides which on-demand modules a run of the current scenario needs. */
  private runNeeds(live: boolean): RunNeeds {
    const s = this.scenario;
    return { settings: s.settings, files: s.files, userSettings: this.userSettings, live, customTools: s.settings.customTools?.length ?? 0 };
  }

  private bootSandbox(): void {
    const epoch = this.epoch;
    // While the sandbox boots, the runners this scenario needs load at idle time: the first Step finds them ready.
    prefetchRunModules(this.runNeeds(this.settings.live || this.takenOver));
    this.sandboxReady = bootScenarioSandbox(this.scenario, () => this.trust.status === 'builtin')
      .then(({ sandbox, info }) => {
        if (epoch !== this.epoch) {
          void sandbox.dispose();
          return null;
        }
        this.sandbox = sandbox;
        this.sandboxInfo = info;
        return sandbox;
      })
      .catch((err: unknown) => {
        if (epoch === this.epoch) this.notice = `The sandbox did not start: ${errorText(err)}. Press Reset to try again.`;
        return null;
      });
  }

  /** A client for the live model of the settings (wrapped by `wrapLive`, e.g. the recorder). */
  async liveClient(): Promise<ModelClient> {
    const client = await bareLiveClient(this.settings);
    return this.wrapLive ? this.wrapLive(client) : client;
  }

  /** Creates the generator. Returns false (with a notice) when the run cannot start. */
  protected async start(opts: StartOptions): Promise<boolean> {
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
    // A built-in slash command (`/compact`, `/hooks` …) never calls the model: a used-up script still runs it.
    if (follow?.kind === 'ended' && !(opts.prompt !== undefined && needsNoModel(opts.prompt))) {
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
    // The hook and tool runners load on demand, and only for a scenario that can use them (run-modules.ts).
    const needs = this.runNeeds(live);
    if (!this.jsRunner && needsJsHooks(needs)) {
      // JS hooks run in the opaque-origin user-code sandbox, never with the app's own origin.
      this.jsRunner = (await frameRunnerModule()).createFrameJsHookRunner();
    }
    // Custom JS tools run in the same kind of sandbox (see src/ui/tools/page-tool-runner.ts).
    if (!this.toolRunner && needsToolRunner(needs)) this.toolRunner = await (await pageToolModule()).pageToolRunner();
    const abort = new AbortController();
    if (this.seenToRestore) {
      await learnReadsOf(this.seenToRestore, sandbox, this.files);
      this.seenToRestore = null;
    }
    const prepared = await prepareRun({
      // After a reload the script resumes at the first turn not yet played.
      scenario: follow?.kind === 'resume' ? { ...this.scenario, model: { kind: 'scripted', turns: follow.turns } } : this.scenario,
      sandbox,
      model,
      ...(live ? { modelId: this.settings.modelId.trim(), countTokens: true, deferTools: true } : { scriptedChunkDelayMs: SCRIPTED_CHUNK_DELAY_MS }),
      ...(follow?.kind === 'resume' ? { scriptedToolIdStart: follow.toolIdStart } : {}),
      prompt: opts.prompt,
      history: opts.history,
      // Money: the page's price table, and its dollar ceiling over the scenario's.
      prices: money.prices,
      ...(money.maxBudgetUsd !== null ? { maxBudgetUsd: money.maxBudgetUsd } : {}),
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
      ...(this.jsRunner ? { jsRunner: this.jsRunner } : {}),
      // http hooks: only origins the user allowed in Settings → Hook endpoints (page-http-hook-client.ts).
      httpHookClient: this.httpHooks,
      // Background hooks belong to the session: one that ends after a run reports at the next prompt.
      asyncHooks: this.asyncHooks,
      ...(this.toolRunner ? { toolRunner: this.toolRunner } : {}),
      memoryStore: browserMemoryStore(),
      ...memoryContext(this.scenario, this.document, this.trust.documentHash, opts.prompt, this.sessionIdOf),
      // Memory is chosen at the first prompt and kept for follow-ups (message 0 stays cache-stable).
      ...(opts.history?.length && this.memoryText !== undefined ? { memory: this.memoryText } : {}),
      ...(this.nextSessionStart ? { sessionStart: this.nextSessionStart } : {}),
      // After `/clear` the conversation is empty but the sandbox is not: keep its files.
      ...(opts.history?.length === 0 && lastRunCleared(this.events) ? { afterClear: true } : {}),
      skillFiles: bundledSkillFiles,
      // devkit: an imported ~/.claude/settings.json is the user scope: what can act in it only once
      // trusted itself, and (as for the rest) only in a trusted run.
      ...(this.userSettings ? { settingsScopes: [{ source: 'user', settings: applyTrust(this.userSettings, this.userSettingsTrusted) }] } : {}),
      steering: this.steering.queue,
      // A live model gets every agent tool (teams when Settings says so); a scripted replay only what its scenario opted into.
      ...(live ? { agentTools: liveAgentFeatures(this.settings), ...(this.settings.memoryByModel ? { memoryByModel: true } : {}) } : {}),
      ...(live && this.liveContextAnswer === 'drop' ? { documentContext: 'drop' as const } : {}),
      // A tool saved in the Tools tab while this run works joins its next request (tools.changed).
      liveCustomTools: () => this.scenario.settings.customTools,
      // MCP servers: the panel's and the project's .mcp.json (src/ui/mcp/).
      ...(await mcpSession.runOptions(sandbox, this.scenario.files, this.documentTrustKey)),
    });
    if (epoch !== this.epoch) return false;
    const { input, deps } = prepared;
    if (!opts.history?.length) this.memoryText = input.memory ?? '';
    // A fork brings its whole history (the prompt is already in it).
    if (opts.messages) input.messages = opts.messages;
    this.lastModel = deps.model;
    this.runPermissions = input.permissions ?? null;
    this.abort = abort;
    this.result = null;
    this.nextSessionStart = null;
    // A team: other tabs of this origin can join its in_tab teammates; the run's end ends the team.
    this.closeTeamTabs();
    if (prepared.team && tabsAvailable()) this.teamTabs = new TabChannel(prepared.team);
    const loop = runPrepared(prepared, input);
    const info = { sandbox, newConversation: !opts.history?.length, prompt: opts.prompt ?? this.scenario.prompt };
    this.gen = this.wrapRun ? this.wrapRun(loop, info) : loop;
    return true;
  }
}
