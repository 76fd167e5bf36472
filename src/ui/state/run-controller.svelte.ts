/**
 * One run of a scenario, driven by pulling the loop's generator. Stepping is nothing more than
 * calling `next()` once; running is calling it until the generator ends or the user pauses;
 * stopping fires the AbortController and keeps pulling so the loop can yield its closing events.
 *
 * Only one pull is ever in flight (`busy`), so double clicks and key repeats cannot interleave
 * `next()` calls. Every await re-checks `epoch`, so a reset mid-pull leaves no stale writes.
 */
import type { Message, ModelClient, RunResult, Sandbox, TraceEvent } from '../../harness/index.ts';
import { agentLoop, FileState } from '../../harness/index.ts';
import { prepareRun } from '../../scenarios/prepare.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { deriveConversation } from './conversation.ts';
import type { ModelSettings } from './settings.svelte.ts';
import { captionOf, stageOf, type StageNode } from './stage.ts';
import { deriveUsage } from './usage.ts';

export type RunStatus = 'idle' | 'running' | 'paused' | 'done' | 'error' | 'aborted';

/** How the current pull loop should behave; changed from outside while it runs. */
type DriveMode = 'step' | 'run' | 'pause' | 'drain';

export type SandboxInfo = { kind: string; reason: string };

/** Longest stretch a run keeps the main thread before it lets the page paint. */
const FRAME_MS = 40;

/** Pause between streamed chunks of a scripted reply, so text visibly streams when running. */
const SCRIPTED_CHUNK_DELAY_MS = 12;

const ENDED: readonly RunStatus[] = ['done', 'error', 'aborted'];

function statusFor(result: RunResult): RunStatus {
  if (result.reason === 'aborted') return 'aborted';
  if (result.reason === 'model_error') return 'error';
  return 'done';
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class RunController {
  scenario = $state.raw<Scenario>() as Scenario;
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

  conversation = $derived(deriveConversation(this.events));
  usage = $derived(deriveUsage(this.events));
  lastEvent = $derived(this.events.at(-1));
  stage = $derived<StageNode | null>(this.lastEvent ? stageOf(this.lastEvent) : null);
  caption = $derived(this.lastEvent ? captionOf(this.lastEvent) : '');
  ended = $derived(ENDED.includes(this.status));
  canStep = $derived(!this.busy && (this.status === 'idle' || this.status === 'paused'));
  canPause = $derived(this.busy && this.status === 'running');
  canStop = $derived(this.status === 'running' || this.status === 'paused');
  canSend = $derived(!this.busy && (this.status === 'idle' || this.ended));

  private gen: AsyncGenerator<TraceEvent, RunResult> | null = null;
  private abort: AbortController | null = null;
  private mode: DriveMode = 'step';
  private buffer: TraceEvent[] = [];
  private epoch = 0;
  private sandboxReady: Promise<Sandbox | null> | null = null;
  /** What the agent has read and snapshotted; carried across follow-up runs of one session. */
  private files = new FileState();

  constructor(
    scenario: Scenario,
    private readonly settings: ModelSettings,
  ) {
    this.scenario = scenario;
    this.bootSandbox();
  }

  /** Pull exactly one event. Starts the run first when there is none. */
  step(): Promise<void> {
    return this.drive('step');
  }

  /** Pull until the run ends or `pause()` is called. */
  run(): Promise<void> {
    return this.drive('run');
  }

  /** Stop after the pull in flight; the run can continue later. */
  pause(): void {
    if (this.mode === 'run') this.mode = 'pause';
  }

  /** Abort the run and pull its closing events until the generator ends. */
  async stop(): Promise<void> {
    if (!this.canStop) return;
    this.abort?.abort();
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

  /** Throw the run and its sandbox away and start fresh (optionally with another scenario). */
  async reset(scenario?: Scenario): Promise<void> {
    this.epoch++;
    this.abort?.abort();
    const oldGen = this.gen;
    const oldSandbox = this.sandboxReady;
    this.gen = null;
    this.abort = null;
    this.buffer = [];
    this.mode = 'step';
    if (scenario) this.scenario = scenario;
    this.events = [];
    this.result = null;
    this.status = 'idle';
    this.notice = null;
    this.busy = false;
    this.phase = '';
    this.sandbox = null;
    this.sandboxInfo = null;
    this.files = new FileState();
    // The old generator may still be awaiting; the abort lets it wind down on its own.
    void oldGen?.return(undefined as never).catch(() => {});
    void oldSandbox?.then((s) => s?.dispose()).catch(() => {});
    this.bootSandbox();
  }

  private bootSandbox(): void {
    const epoch = this.epoch;
    this.sandboxReady = (async () => {
      const { chooseSandbox } = await import('../../sandbox/select.ts');
      const chosen = await chooseSandbox(this.scenario.settings.sandbox, {});
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

  private async liveClient(): Promise<ModelClient> {
    const { createAnthropicClient } = await import('../../model/anthropic/client.ts');
    return createAnthropicClient({
      apiKey: this.settings.apiKey.trim(),
      baseURL: this.settings.baseURL.trim(),
      dangerouslyAllowBrowser: true,
    });
  }

  /** Creates the generator. Returns false (with a notice) when the run cannot start. */
  private async start(opts: { prompt?: string; history?: Message[] }): Promise<boolean> {
    const epoch = this.epoch;
    const live = this.settings.live;
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
    const model = live ? await this.liveClient() : undefined;
    const abort = new AbortController();
    const { input, deps } = await prepareRun({
      scenario: this.scenario,
      sandbox,
      model,
      ...(live ? { modelId: this.settings.modelId.trim() } : { scriptedChunkDelayMs: SCRIPTED_CHUNK_DELAY_MS }),
      prompt: opts.prompt,
      history: opts.history,
      files: this.files,
      signal: abort.signal,
    });
    if (epoch !== this.epoch) return false;
    this.abort = abort;
    this.result = null;
    this.gen = agentLoop(input, deps);
    return true;
  }

  private async drive(mode: DriveMode, startWith?: { prompt?: string; history?: Message[] }): Promise<void> {
    if (this.busy) return;
    if (!startWith && !(this.status === 'idle' || this.status === 'paused' || mode === 'drain')) return;
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
        const more = await this.pullOne(epoch);
        if (epoch !== this.epoch) return;
        if (!more || this.mode === 'step' || this.mode === 'pause') break;
        if (performance.now() - lastPaint > FRAME_MS) {
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
    if (r.value.type === 'run.end') {
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
  }

  private flush(): void {
    if (!this.buffer.length) return;
    this.events = this.events.concat(this.buffer);
    this.buffer = [];
  }
}
