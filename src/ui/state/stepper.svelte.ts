/**
 * The stepper: breakpoints, Continue to the next one, a cursor over the event log (step back
 * re-renders every panel from the log, the live generator untouched), and what can be changed
 * at a stop — a tool input or the next request's last user message, continued as a fork — or
 * "take over" with the live model.
 */
import { realClock } from '../../harness/clock.ts';
import type { ModelClient } from '../../harness/index.ts';
import { emptyBreakpoints, matchBreakpoint, toggleBreakpoint, type BreakpointKind, type Breakpoints } from '../stepper/breakpoints.ts';
import { forkWithToolInputs, forkWithUserText, pendingAt, takeOverHistory, type ForkPlan, type Pending } from '../stepper/fork.ts';
import type { Recorder } from '../stepper/recorder.svelte.ts';
import type { RunController } from './run-controller.svelte.ts';
import type { ModelSettings } from './settings.svelte.ts';

export type Hit = { label: string; seq: number };

export class Stepper {
  breakpoints = $state.raw<Breakpoints>(emptyBreakpoints());
  /** The breakpoint the last Continue stopped at. */
  hit = $state.raw<Hit | null>(null);
  /** What the last fork changed ("Forked at event 12: edited the input of bash"). */
  forkNote = $state<string | null>(null);
  /** Why the last edit or take-over could not happen. */
  error = $state<string | null>(null);
  private forks = 0;

  /** `recorder` is built before the controller (it wraps the controller's live clients: its `wrapLive` hook). */
  constructor(
    private readonly ctl: RunController,
    private readonly settings: ModelSettings,
    readonly recorder: Recorder,
  ) {}

  /** How many events the panels show, and how many the log has. */
  get position(): number {
    return this.ctl.shown.length;
  }
  get total(): number {
    return this.ctl.events.length;
  }
  get canStepBack(): boolean {
    return !this.ctl.busy && this.position > 1;
  }
  get canContinue(): boolean {
    return this.ctl.canStep;
  }
  /** The edit offered now: only at the live end of a paused run (the sandbox is that moment's). */
  get pending(): Pending {
    if (this.ctl.cursor !== null || this.ctl.busy || this.ctl.status !== 'paused') return null;
    return pendingAt(this.ctl.events);
  }

  /** A new conversation: no stop, no fork, nothing recorded. */
  clear(): void {
    this.hit = null;
    this.forkNote = null;
    this.error = null;
    this.recorder.clear();
  }

  toggle(kind: BreakpointKind, value: string): void {
    this.breakpoints = toggleBreakpoint(this.breakpoints, kind, value);
  }

  stepBack(): void {
    if (!this.canStepBack) return;
    this.ctl.cursor = Math.max(1, this.position - 1);
    this.hit = null;
  }

  /**
   * Run to the next event a breakpoint matches. Stepped back, it first looks through the events
   * already in the log (moving the cursor), and only pulls new ones past the end.
   */
  async continue(): Promise<void> {
    if (!this.canContinue) return;
    this.hit = null;
    const bp = this.breakpoints;
    const from = this.ctl.cursor;
    if (from !== null) {
      for (let i = from; i < this.ctl.events.length; i++) {
        const m = matchBreakpoint(bp, this.ctl.events[i]!);
        if (m) {
          this.ctl.cursor = i + 1 >= this.ctl.events.length ? null : i + 1;
          this.hit = { label: m.label, seq: i + 1 };
          return;
        }
      }
      this.ctl.cursor = null;
      if (this.ctl.ended) return;
    }
    const before = this.ctl.events.length;
    await this.ctl.run((e) => matchBreakpoint(bp, e) !== null);
    for (let i = before; i < this.ctl.events.length; i++) {
      const m = matchBreakpoint(bp, this.ctl.events[i]!);
      if (m) {
        this.hit = { label: m.label, seq: i + 1 };
        break;
      }
    }
  }

  /** At a `tool.proposed` stop: run the reply again with edited inputs (JSON text per tool id). */
  async editToolInputs(texts: ReadonlyMap<string, string>): Promise<void> {
    const edits: [string, Record<string, unknown>][] = [];
    for (const [id, text] of texts) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        this.error = `The input is not JSON (${e instanceof Error ? e.message : String(e)}). Fix it and apply again.`;
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        this.error = 'A tool input is a JSON object, e.g. {"command": "ls"}.';
        return;
      }
      edits.push([id, value as Record<string, unknown>]);
    }
    this.forks++;
    await this.applyFork(forkWithToolInputs(this.ctl.events, edits, `edit${this.forks}`));
  }

  /** At a `model.request` stop: send the request again with its last user message edited. */
  async editRequest(text: string): Promise<void> {
    await this.applyFork(forkWithUserText(this.ctl.events, text));
  }

  private async applyFork(plan: ForkPlan): Promise<void> {
    if (!plan.ok) {
      this.error = plan.error;
      return;
    }
    const at = this.total;
    const inner: ModelClient | null = this.ctl.lastModel ?? (this.settings.live ? await this.ctl.liveClient() : null);
    if (!inner) {
      this.error = 'There is no model to continue with: run the scenario first.';
      return;
    }
    this.error = null;
    this.hit = null;
    // The edited turn plays at the pace of scripted replies (Settings → Scripted replies). The scripted
    // player (it validates the turn with its schema) loads here, not with the first screen.
    const replayFirst = plan.replayFirst ? (await import('../stepper/replay-first-client.ts')).replayFirst : null;
    const model = plan.replayFirst && replayFirst ? replayFirst(plan.replayFirst, inner, { clock: realClock, chunkDelayMs: this.settings.scriptedChunkDelayMs }) : inner;
    await this.ctl.fork(plan.history, { model });
    this.forkNote = `Forked at event ${at}: ${plan.note}. The run continues from there in the same sandbox.`;
  }

  /** Why "take over" cannot happen now, or null. */
  get takeOverProblem(): string | null {
    if (this.settings.live || this.ctl.takenOver) return 'The live model is already answering.';
    if (!this.settings.apiKey.trim()) return 'Add your API key in Settings to take over with the live model.';
    if (this.ctl.busy) return 'Wait for the step in flight.';
    if (this.ctl.cursor !== null) return 'Step forward to the latest event first: a take-over continues from there.';
    if (this.total === 0) return 'Step into the run first.';
    return this.settings.liveProblem;
  }

  /**
   * Continue this conversation with the live model from here: the history so far (calls with no
   * result closed as interrupted) goes to the live client; later prompts do too.
   */
  async takeOver(): Promise<void> {
    if (this.takeOverProblem) return;
    const at = this.total;
    const { history, continueNow } = takeOverHistory(this.ctl.events);
    this.error = null;
    this.hit = null;
    if (continueNow) {
      await this.ctl.fork(history, { live: true });
      this.forkNote = `Taken over at event ${at}: the live model continues this conversation.`;
      await this.continue();
    } else {
      this.ctl.takenOver = true;
      this.forkNote = `Taken over at event ${at}: the model had just answered, so your next prompt goes to the live model.`;
      if (this.ctl.status === 'paused') await this.ctl.run();
    }
  }
}
