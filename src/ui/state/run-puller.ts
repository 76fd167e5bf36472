/**
 * The pull loop of a run: stepping is calling the loop generator's `next()` once; running is
 * calling it until the generator ends, the user pauses or a breakpoint matches; draining (after
 * Stop) keeps pulling so the loop can yield its closing events.
 *
 * Only one pull is ever in flight (`busy`), so double clicks and key repeats cannot interleave
 * `next()` calls. Every await re-checks that the conversation it pulls for is still the host's
 * (`host.state === run`), so a reset mid-pull leaves no stale writes. Pulled events wait in
 * `buffer` and reach `events` in batches, so the page paints between them.
 *
 * A part of the run controller, not a base class: it is given the host it drives at construction.
 */
import type { RunResult } from '../../harness/index.ts';
import type { RunState } from './run-state.svelte.ts';
import { errorText, statusFor, type DriveMode, type StartOptions, type StopWhen } from './run-types.ts';

/** Longest stretch a run keeps the main thread before it lets the page paint. */
const FRAME_MS = 40;
/** Events after which the generator may take a while to yield again. */
// model.error: a retry wait follows it, and its countdown must be on screen during the wait.
const WAITS_AFTER = new Set(['tool.started', 'model.request', 'permission.prompt', 'model.error']);

/** A macrotask: Svelte's effects and the browser's paint and input run before the next pull. */
const yieldToPage = () => new Promise((r) => setTimeout(r, 0));

export const RESTORING_NOTICE = 'The last session is still being restored: wait a moment, then step or run.';

/** What the pull loop drives: the controller's conversation and its gates. */
export interface PullHost {
  /** The conversation being pulled now (replaced by a reset). */
  readonly state: RunState;
  /** Nothing from the scenario may run yet (the trust question is open). */
  readonly blocked: boolean;
  /** The session open before a reload is still being read back: nothing may start. */
  readonly restoring: boolean;
  /** Why pulling must wait (a lesson question) at log length `logLength`, or null. */
  hold(logLength: number): string | null;
  /** Creates `run.gen`. Returns false (with a notice) when the run cannot start. */
  startRun(run: RunState, opts: StartOptions): Promise<boolean>;
}

export class RunPuller {
  /** Set by `run(stopWhen)`: the pull loop stops after an event it matches (a breakpoint). */
  stopWhen: StopWhen | null = null;

  constructor(private readonly host: PullHost) {}

  async drive(mode: DriveMode, startWith?: StartOptions): Promise<void> {
    const run = this.host.state;
    if (run.busy) return;
    if (!startWith && !(run.status === 'idle' || run.status === 'paused' || mode === 'drain')) return;
    if (this.host.blocked && !run.gen && mode !== 'drain') return;
    if (run.readOnly && mode !== 'drain') return;
    if (this.host.restoring && mode !== 'drain') {
      run.notice = RESTORING_NOTICE;
      return;
    }
    if (mode !== 'drain' && !startWith) {
      const held = this.host.hold(run.events.length);
      if (held) {
        run.notice = held;
        return;
      }
    }
    const stale = () => run !== this.host.state;
    run.busy = true;
    run.mode = mode;
    run.notice = null;
    const prevStatus = run.status;
    run.status = 'running';
    let lastPaint = performance.now();
    let lastFlush = lastPaint;
    // What putting the last batch on screen cost (every panel derives from the log, which grows):
    // batches get rarer as that grows, so pulling keeps most of the time and the page stays responsive.
    let flushCost = 0;
    let pulled = 0;
    try {
      if (!run.gen) {
        const ok = await this.host.startRun(run, startWith ?? {});
        if (stale()) return;
        run.phase = '';
        if (!ok) {
          run.status = prevStatus;
          return;
        }
        // Stop was pressed while the run was still starting: abort it as soon as it exists.
        if (run.mode === 'drain') run.abort?.abort();
      }
      for (;;) {
        const before = run.events.length + run.buffer.length;
        // A pull that does not come back within a frame may wait for long after any event (a
        // team waiting for another tab's next note): what was pulled so far goes on screen meanwhile.
        const slow = setTimeout(() => !stale() && flush(run), FRAME_MS);
        const more = await this.pullOne(run).finally(() => clearTimeout(slow));
        if (stale()) return;
        if (!more || run.mode === 'step' || run.mode === 'pause') break;
        if (run.mode === 'run' && this.stopsHere(run, before)) break;
        const last = run.buffer.at(-1) ?? run.events.at(-1);
        if (last) run.progress = { pulled: ++pulled, agentId: last.agentId };
        // The next pull may wait long (a tool running, the model thinking): show what led up to it now
        // (a pull that does wait is flushed by `slow` above anyway, so this one may be throttled).
        const waitsNext = WAITS_AFTER.has(last?.type ?? '');
        const now = performance.now();
        if (now - lastFlush > Math.max(FRAME_MS, 4 * flushCost) && (waitsNext || now - lastPaint > FRAME_MS)) {
          flush(run);
          await yieldToPage();
          if (stale()) return;
          lastPaint = lastFlush = performance.now();
          flushCost = lastFlush - now;
        } else if (now - lastPaint > FRAME_MS) {
          // No batch yet: the progress line paints and clicks (Pause) get through.
          await yieldToPage();
          if (stale()) return;
          lastPaint = performance.now();
        }
      }
    } catch (err) {
      if (stale()) return;
      run.gen = null;
      run.status = 'error';
      run.notice = `The run failed unexpectedly: ${errorText(err)}. Press Reset to start again.`;
    } finally {
      if (!stale()) {
        flush(run);
        run.phase = '';
        run.progress = null;
        run.busy = false;
        if (run.status === 'running') run.status = run.gen ? 'paused' : run.status;
      }
    }
  }

  /** A breakpoint matched one of the events pulled after log length `before`, or a lesson holds. */
  private stopsHere(run: RunState, before: number): boolean {
    const length = run.events.length + run.buffer.length;
    if (this.host.hold(length)) return true;
    const stopWhen = this.stopWhen;
    if (!stopWhen) return false;
    // A permission prompt flushes mid-pull, so the new events may be partly in `events` already.
    const n = length - before;
    const fresh = n <= run.buffer.length ? run.buffer.slice(run.buffer.length - n) : [...run.events.slice(before), ...run.buffer];
    return fresh.some((e, i) => stopWhen(e, before + i + 1));
  }

  /** One `next()`; after `run.end` the generator's return value is collected too. */
  private async pullOne(run: RunState): Promise<boolean> {
    const gen = run.gen;
    if (!gen) return false;
    const r = await gen.next();
    if (run !== this.host.state) return false;
    if (r.done) {
      finish(run, r.value);
      return false;
    }
    run.buffer.push(r.value);
    // The main run's end (a subagent's run.end is just another event of the stream).
    if (r.value.type === 'run.end' && r.value.agentId === 'main') {
      const last = await gen.next();
      if (run !== this.host.state) return false;
      if (last.done) {
        finish(run, last.value);
        return false;
      }
      run.buffer.push(last.value);
    }
    return true;
  }
}

function finish(run: RunState, result: RunResult): void {
  run.gen = null;
  run.abort = null;
  run.result = result;
  run.status = statusFor(result);
  run.steering.runEnded();
}

/** Puts the buffered events on screen (and mirrors the session grants the pipeline added). */
export function flush(run: RunState): void {
  if (run.grants.rules.length !== run.grantedRules.length) run.grantedRules = run.grants.rules.map((r) => r.rule.text);
  if (!run.buffer.length) return;
  run.events = run.events.concat(run.buffer);
  run.buffer = [];
}
