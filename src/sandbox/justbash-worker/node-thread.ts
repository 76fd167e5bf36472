/**
 * just-bash on a `node:worker_threads` thread: the headless runner's sandbox. Node delivers Ctrl-C
 * to the main thread's event loop, which a guest program spinning in QuickJS on that same thread
 * would never let run; with the engine on its own thread the main thread stays free, sees the
 * SIGINT, and stops the command through the shared abort flag (`host.ts`) as the page's Stop does.
 */
import { Worker } from 'node:worker_threads';
import { createWorkerSandbox, type WorkerLike, type WorkerSandbox, type WorkerSandboxOptions } from './client.ts';
import type { FromWorker } from './protocol.ts';
import type { DetachableWorker } from './spare-worker.ts';

/**
 * How the thread is started. `youngGenerationMb` caps its young generation (V8 otherwise grows it
 * to ~17 MB, most of it garbage between commands: resident memory the runner's peak pays for);
 * `onOnline` runs each time a thread is up (a new thread re-initialises V8's process-wide flags,
 * which `src/cli/heap.ts` sets again then).
 */
export type NodeThreadOptions = {
  youngGenerationMb?: number;
  onOnline?: () => void;
  /**
   * A thread already running `entry`, started before this sandbox was asked for (the runner's
   * launcher starts one, `src/cli/early-thread.ts`): the first spawn takes it instead of starting
   * one. `online`: whether it has said so already. Null when there is none to take.
   */
  adopt?: () => { worker: Worker; online: boolean } | null;
};

/** A thread running `entry` (a bundled `node-entry.ts`), adapted to what the worker sandbox talks to. */
export function spawnNodeThread(entry: URL, thread: NodeThreadOptions = {}): WorkerLike {
  const worker = new Worker(entry, thread.youngGenerationMb ? { resourceLimits: { maxYoungGenerationSizeMb: thread.youngGenerationMb } } : {});
  return adoptNodeThread(worker, false, thread);
}

/** `worker` (new, or started earlier: `online` says whether it already came up) adapted as `spawnNodeThread` does. */
export function adoptNodeThread(worker: Worker, online: boolean, thread: NodeThreadOptions = {}): WorkerLike {
  if (thread.onOnline) {
    if (online) thread.onOnline();
    else worker.once('online', thread.onOnline);
  }
  const { detach: _detach, ...adapted } = adaptNodeThread(worker);
  return adapted;
}

/** A started thread adapted to the worker sandbox, with `detach` (for `recyclingSpawner`). */
export function adaptNodeThread(worker: Worker): DetachableWorker {
  type Listener = Parameters<Worker['off']>[1];
  const added: [string, Listener][] = [];
  const listen = (event: string, fn: Listener) => {
    worker.on(event, fn);
    added.push([event, fn]);
  };
  return {
    post: (msg) => worker.postMessage(msg),
    onMessage: (handler) => listen('message', (msg: FromWorker) => handler(msg)),
    onError: (handler) => {
      listen('error', (e: Error) => handler(e.message));
      listen('exit', (code: number) => handler(`the worker thread exited (code ${code})`));
    },
    terminate: () => void worker.terminate(),
    detach: () => {
      for (const [event, fn] of added.splice(0)) worker.off(event, fn);
    },
  };
}

export function createJustBashThreadSandbox(entry: URL, opts: Omit<WorkerSandboxOptions, 'spawn'> = {}, thread: NodeThreadOptions = {}): Promise<WorkerSandbox> {
  return createWorkerSandbox({
    ...opts,
    spawn: () => {
      const early = thread.adopt?.();
      return early ? adoptNodeThread(early.worker, early.online, thread) : spawnNodeThread(entry, thread);
    },
  });
}
