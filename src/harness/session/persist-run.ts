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
 */
import type { RunResult } from '../loop/types.ts';
import type { Clock, SandboxFs } from '../ports.ts';
import type { TraceEvent } from '../trace.ts';
import type { SessionLogWriter } from './log-writer.ts';
import type { SnapshotOptions, SnapshotTracker } from './snapshot.ts';

export type PersistRunOptions = {
  writer: SessionLogWriter;
  clock: Clock;
  /** Where to snapshot files; omit to log events only. */
  snapshots?: { fs: SandboxFs; root: string; tracker: SnapshotTracker; options?: SnapshotOptions };
  /** Which events get a snapshot just before them; default run.start, sandbox.changed, run.end. */
  snapshotBefore?: (event: TraceEvent) => boolean;
  /** A snapshot that failed (a file vanished mid-walk …); the run goes on without it. */
  onSnapshotError?: (message: string) => void;
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
  let finished = false;
  try {
    let step = await run.next();
    while (!step.done) {
      const event = step.value;
      if (opts.snapshots && trigger(event)) await snapshot(opts);
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
  try {
    const delta = await s.tracker.take(s.fs, s.root, s.options);
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
