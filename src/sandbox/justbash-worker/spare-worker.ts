/**
 * One idle sandbox worker kept for the next sandbox. Loading just-bash in a new worker costs the
 * page's CPU (parsing and compiling a 0.7 MB module, a few hundred ms on two cores); switching scenarios
 * before running anything (the picker's default booted one already) would pay it twice. A sandbox
 * disposed before it ran a single command hands its worker back (`WorkerLike.recycle`, after the
 * client posted `reset`), and the next spawn takes it instead of starting another.
 *
 * Only a worker that never ran a command is kept: files are plain data, but a command can run guest
 * code (node, python) in the worker's realm, so a worker that ran one is terminated, never reused.
 */
import type { WorkerLike } from './client.ts';

/** A raw worker adapted to the client, plus a way to drop every listener the adapter added. */
export type DetachableWorker = Omit<WorkerLike, 'recycle'> & { detach(): void };

/**
 * A spawn function for `createWorkerSandbox` that reuses the last recycled worker. `make` starts a
 * new raw worker, `adapt` wraps one for a sandbox, `kill` terminates a spare that is replaced.
 */
export function recyclingSpawner<W>(make: () => W, adapt: (raw: W) => DetachableWorker, kill: (raw: W) => void): () => WorkerLike {
  let spare: W | null = null;
  return () => {
    const raw = spare ?? make();
    spare = null;
    const worker = adapt(raw);
    let handedBack = false;
    return {
      post: worker.post,
      onMessage: worker.onMessage,
      onError: worker.onError,
      terminate: worker.terminate,
      recycle: () => {
        if (handedBack) return;
        handedBack = true;
        worker.detach();
        if (spare !== null) kill(spare);
        spare = raw;
      },
    };
  };
}
