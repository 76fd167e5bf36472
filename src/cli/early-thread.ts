/**
 * The sandbox thread, started by the launcher (`launch.ts`) before it reads the runner: booting a
 * Node thread and loading just-bash there (~230 ms of that thread's CPU) then overlaps the
 * runner's own start instead of beginning after it. The runner takes it for its first sandbox
 * (`cli-sandbox.ts`, through `NodeThreadOptions.adopt`); until then it is unref'd, so a run that
 * never asks for a sandbox (`--help`, a usage error) exits as before, and the thread with it.
 *
 * The launcher and the runner are separate bundles: they meet through one global.
 */
import { Worker } from 'node:worker_threads';

const KEY = Symbol.for('harness-playground.early-sandbox-thread');

/** The thread as the launcher left it. */
interface EarlyThread {
  worker: Worker;
  /** The entry it runs (`dist-cli/sandbox-worker.mjs`), as a URL: only a sandbox asking for the same one takes it. */
  entry: string;
  online: boolean;
  /** False once it exited or failed: the runner then starts its own, as it would have. */
  alive: boolean;
}

const slot = globalThis as Record<symbol, EarlyThread | undefined>;

/**
 * Whether the runner will take the thread for this command line (the launcher reads no option
 * parser, so this looks at the words): not for `--help`/`-h` or `golden` (no sandbox of this kind),
 * nor for `--all --quiet` without `--live` or `--dir` (every lesson replayed, `runAllLessons`, each
 * in a sandbox of its own on the runner's thread). When it guesses wrong the cost is what it was
 * before: a thread started and never taken, or a first sandbox that starts its own.
 */
export function runnerTakesEarlyThread(args: readonly string[]): boolean {
  if (args.includes('--help') || args.includes('-h') || args[0] === 'golden') return false;
  const allLessons = args.includes('--all') && args.includes('--quiet') && !args.some((a) => a === '--live' || a === '--dir' || a.startsWith('--dir='));
  return !allLessons;
}

/** Starts the thread on `entry` with the young generation the runner gives its sandbox thread (`heap.ts`); returns it (for tests). */
export function startEarlySandboxThread(entry: URL, youngGenerationMb: number): Worker {
  const worker = new Worker(entry, { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
  const early: EarlyThread = { worker, entry: entry.href, online: false, alive: true };
  worker.once('online', () => {
    early.online = true;
  });
  // Listened to, so a thread that fails before anyone takes it does not throw on this one.
  worker.once('error', () => {
    early.alive = false;
  });
  worker.once('exit', () => {
    early.alive = false;
  });
  worker.unref();
  slot[KEY] = early;
  return worker;
}

/**
 * The launcher's thread for a sandbox on `entry`, once: ref'd again (it now keeps the process
 * alive like any sandbox thread). Null when there is none, it died, or it runs another entry
 * (then it is stopped). It has been sent nothing yet: the sandbox's `init` is the first message.
 */
export function takeEarlySandboxThread(entry: URL): { worker: Worker; online: boolean } | null {
  const early = slot[KEY];
  slot[KEY] = undefined;
  if (!early) return null;
  if (!early.alive || early.entry !== entry.href) {
    void early.worker.terminate();
    return null;
  }
  early.worker.ref();
  return { worker: early.worker, online: early.online };
}
