/**
 * `persistRun`: wraps one run of the loop so that everything it yields is written to the session
 * log, with sandbox snapshots where the files may have changed, and the run's carry-over state at
 * the end. The wrapper yields the same events and returns the same `RunResult`, so the UI steps
 * it exactly like the bare loop.
 *
 * Snapshots are taken *before* the event that triggers them is logged (the loop is paused while
 * we hold its event, so the files are still): a fork at log seq n then restores the files as they
 * were when event n happened. Default triggers: `run.start` (the seeded or previous files),
 * `sandbox.changed` (after a turn's tools wrote) and `run.end`. Unchanged files cost nothing: the
 * tracker stores only deltas, and no entry at all when nothing changed.
 *
 * `firstSnapshot` and {@link startedEarly} let a caller overlap the waits before the first event
 * (the snapshot's reads, the run computing its event, the caller's own store write) for a run that
 * writes no file before its first event — the agent loop's is `run.start`.
 */
import type { RunResult } from '../loop/types.ts';
import type { Clock, SandboxFs } from '../ports.ts';
import type { TraceEvent } from '../trace.ts';
import type { SessionLogWriter } from './log-writer.ts';
import type { SnapshotOptions, SnapshotTracker } from './snapshot.ts';
import type { SnapshotDelta } from './types.ts';

export type PersistRunOptions = {
  writer: SessionLogWriter;
  clock: Clock;
  /** Where to snapshot files; omit to log events only. */
  snapshots?: { fs: SandboxFs; root: string; tracker: SnapshotTracker; options?: SnapshotOptions };
  /** Which events get a snapshot just before them; default run.start, sandbox.changed, run.end. */
  snapshotBefore?: (event: TraceEvent) => boolean;
  /** A snapshot that failed (a file vanished mid-walk …); the run goes on without it. */
  onSnapshotError?: (message: string) => void;
  /**
   * The files' first snapshot, already under way (`snapshots.tracker.take`), for a run that writes no
   * file before its first event: logged just before that event, in place of the one its trigger takes.
   */
  firstSnapshot?: Promise<SnapshotDelta | null>;
};

export const defaultSnapshotTrigger = (e: TraceEvent): boolean =>
  e.type === 'run.start' || e.type === 'sandbox.changed' || e.type === 'run.end';

export async function* persistRun(
  run: AsyncGenerator<TraceEvent, RunResult>,
  opts: PersistRunOptions,
): AsyncGenerator<TraceEvent, RunResult> {
  const trigger = opts.snapshotBefore ?? defaultSnapshotTrigger;
  // One run writes a log at a time: a second one is refused before it writes anything.
  const owner = {};
  const claim = opts.writer.claimRun(owner);
  if (!claim.ok) {
    await run.return(undefined as never).catch(() => undefined);
    throw new Error(claim.error);
  }
  // Awaited at the first event; a run that fails before it must not leave the snapshot's failure unhandled.
  opts.firstSnapshot?.catch(() => undefined);
  let finished = false;
  try {
    let step = await run.next();
    let first = opts.firstSnapshot;
    while (!step.done) {
      const event = step.value;
      if (first) await logSnapshot(opts, first);
      else if (opts.snapshots && trigger(event)) await snapshot(opts);
      first = undefined;
      opts.writer.append(event);
      yield event;
      step = await run.next();
    }
    finished = true;
    const result = step.value;
    opts.writer.append({
      type: 'session.run_result',
      ts: opts.clock.now(),
      reason: result.reason,
      turns: result.turns,
      usage: result.usage,
      messageCount: result.messages.length,
      contextState: result.contextState,
    });
    await opts.writer.flush();
    return result;
  } finally {
    // The consumer stopped pulling (return/throw on this generator): stop the loop too.
    if (!finished) await run.return(undefined as never).catch(() => undefined);
    opts.writer.releaseRun(owner);
  }
}

async function snapshot(opts: PersistRunOptions): Promise<void> {
  const s = opts.snapshots!;
  await logSnapshot(opts, s.tracker.take(s.fs, s.root, s.options));
}

async function logSnapshot(opts: PersistRunOptions, taking: Promise<SnapshotDelta | null>): Promise<void> {
  try {
    const delta = await taking;
    if (delta) opts.writer.append({ type: 'session.snapshot', ts: opts.clock.now(), delta });
  } catch (err) {
    opts.onSnapshotError?.(`A sandbox snapshot failed (${(err as Error)?.message ?? String(err)}); forks from here restore the files of the previous snapshot.`);
  }
}

/**
 * Writes one event that happened between pulls of a run (the person editing the sandbox, a
 * terminal command) to the session log, with the snapshot its trigger asks for taken first, so
 * step-back and forks see the files as they were once the event had happened.
 */
export async function persistEvent(event: TraceEvent, opts: PersistRunOptions): Promise<void> {
  const trigger = opts.snapshotBefore ?? defaultSnapshotTrigger;
  if (opts.snapshots && trigger(event)) await snapshot(opts);
  opts.writer.append(event);
  await opts.writer.flush();
}

/**
 * `run`, with its first `next()` asked for now: the caller's own waits (a store write) overlap the run
 * computing its first event. Pulls, returns and stops exactly as `run` would; a first step that failed
 * throws at the first pull.
 */
export function startedEarly<R>(run: AsyncGenerator<TraceEvent, R>): AsyncGenerator<TraceEvent, R> {
  const first = run.next();
  // Surfaced at the first pull, not as an unhandled rejection meanwhile.
  first.catch(() => undefined);
  return resumedAt(first, run);
}

async function* resumedAt<R>(first: Promise<IteratorResult<TraceEvent, R>>, run: AsyncGenerator<TraceEvent, R>): AsyncGenerator<TraceEvent, R> {
  let step = await first;
  try {
    while (!step.done) {
      yield step.value;
      step = await run.next();
    }
    return step.value;
  } finally {
    // The consumer stopped pulling: stop `run` too (a no-op once it has ended).
    if (!step.done) await run.return(undefined as never).catch(() => undefined);
  }
}
