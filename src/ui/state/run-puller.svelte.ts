/**
 * The pull loop of a run: stepping is calling the loop generator's `next()` once; running is
 * calling it until the generator ends, the user pauses or a breakpoint matches; draining (after
 * Stop) keeps pulling so the loop can yield its closing events.
 *
 * Only one pull is ever in flight (`busy`), so double clicks and key repeats cannot interleave
 * `next()` calls. Every await re-checks `epoch`, so a reset mid-pull leaves no stale writes.
 * Pulled events wait in `buffer` and reach `events` in batches, so the page paints between them.
 */
import type { RunResult, TraceEvent } from '../../harness/index.ts';
import { RunView } from './run-view.svelte.ts';
import { SteeringBox } from './steering.svelte.ts';
import { errorText, statusFor, type DriveMode, type StartOptions, type StopWhen } from './run-types.ts';

/** Longest stretch a run keeps the main thread before it lets the page paint. */
const FRAME_MS = 40;
/** Events after which the generator may take a while to yield again. */
// model.error: a retry wait follows it, and its countdown must be on screen during the wait.
const WAITS_AFTER = new Set(['tool.started', 'model.request', 'permission.prompt', 'model.error']);

/** A macrotask: Svelte's effects and the browser's paint and input run before the next pull. */
const yieldToPage = () => new Promise((r) => setTimeout(r, 0));

export const RESTORING_NOTICE = 'The last session is still being restored: wait a moment, then step or run.';

export abstract class RunPuller extends RunView {
  /** Why pulling the next event must wait (a lesson question), given the log length; set by the lesson. */
  hold: (logLength: number) => string | null = () => null;
  // agents: messages typed while a run works, delivered by the loop at its next safe point
  readonly steering = new SteeringBox();

  /**
   * While a Run (or a grain, or Continue) pulls: how many events so far and which agent yielded the
   * last one. A subagent or team turn pulls hundreds of events; the list catches up in batches, so
   * this is what shows the run is moving (RunStatus). Null when nothing runs.
   */
  progress = $state.raw<{ pulled: number; agentId: string } | null>(null);

  protected gen: AsyncGenerator<TraceEvent, RunResult> | null = null;
  protected abort: AbortController | null = null;
  protected mode: DriveMode = 'step';
  protected buffer: TraceEvent[] = [];
  protected epoch = 0;
  /** Set by `run(stopWhen)`: the pull loop stops after an event it matches (a breakpoint). */
  protected stopWhen: StopWhen | null = null;

  /** Nothing from the scenario may run yet (the trust question is open). */
  protected abstract get blocked(): boolean;
  /** Creates the generator. Returns false (with a notice) when the run cannot start. */
  protected abstract start(opts: StartOptions): Promise<boolean>;

  protected async drive(mode: DriveMode, startWith?: StartOptions): Promise<void> {
    if (this.busy) return;
    if (!startWith && !(this.status === 'idle' || this.status === 'paused' || mode === 'drain')) return;
    if (this.blocked && !this.gen && mode !== 'drain') return;
    if (this.readOnly && mode !== 'drain') return;
    if (this.restoring && mode !== 'drain') {
      this.notice = RESTORING_NOTICE;
      return;
    }
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
    let lastFlush = lastPaint;
    // What putting the last batch on screen cost (every panel derives from the log, which grows):
    // batches get rarer as that grows, so pulling keeps most of the time and the page stays responsive.
    let flushCost = 0;
    let pulled = 0;
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
        // A pull that does not come back within a frame may wait for long after any event (a
        // team waiting for another tab's next note): what was pulled so far goes on screen meanwhile.
        const slow = setTimeout(() => epoch === this.epoch && this.flush(), FRAME_MS);
        const more = await this.pullOne(epoch).finally(() => clearTimeout(slow));
        if (epoch !== this.epoch) return;
        if (!more || this.mode === 'step' || this.mode === 'pause') break;
        if (this.mode === 'run' && this.stopsHere(before)) break;
        const last = this.buffer.at(-1) ?? this.events.at(-1);
        if (last) this.progress = { pulled: ++pulled, agentId: last.agentId };
        // The next pull may wait long (a tool running, the model thinking): show what led up to it now
        // (a pull that does wait is flushed by `slow` above anyway, so this one may be throttled).
        const waitsNext = WAITS_AFTER.has(last?.type ?? '');
        const now = performance.now();
        if (now - lastFlush > Math.max(FRAME_MS, 4 * flushCost) && (waitsNext || now - lastPaint > FRAME_MS)) {
          this.flush();
          await yieldToPage();
          if (epoch !== this.epoch) return;
          lastPaint = lastFlush = performance.now();
          flushCost = lastFlush - now;
        } else if (now - lastPaint > FRAME_MS) {
          // No batch yet: the progress line paints and clicks (Pause) get through.
          await yieldToPage();
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
        this.progress = null;
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

  protected flush(): void {
    // The pipeline adds "allow for this session" rules itself; mirror them for display.
    if (this.grants.rules.length !== this.grantedRules.length) this.grantedRules = this.grants.rules.map((r) => r.rule.text);
    if (!this.buffer.length) return;
    this.events = this.events.concat(this.buffer);
    this.buffer = [];
  }
}
