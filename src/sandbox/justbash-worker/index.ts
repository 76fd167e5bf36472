/**
 * just-bash in a browser Web Worker: the sandbox the app uses in the browser, so a busy loop
 * never freezes the page and Stop interrupts it (see `client.ts` for how).
 */
import { createWorkerSandbox } from './client.ts';
import type { WorkerLike, WorkerSandbox } from './client.ts';
import type { FromWorker } from './protocol.ts';

export type JustBashWorkerOptions = {
  files?: Record<string, string>;
  env?: Record<string, string>;
};

/** Whether this page can run the sandbox in a module Worker. */
export function canUseWorkers(): boolean {
  return typeof Worker === 'function' && typeof window !== 'undefined';
}

function spawnBrowserWorker(): WorkerLike {
  // Written out here (not passed in) so Vite sees the URL and bundles sandbox-worker.ts as its own chunk.
  const worker = new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module', name: 'just-bash sandbox' });
  return {
    post: (msg) => worker.postMessage(msg),
    onMessage: (handler) => worker.addEventListener('message', (e: MessageEvent<FromWorker>) => handler(e.data)),
    onError: (handler) => {
      worker.addEventListener('error', (e) => handler(e.message || 'the worker script could not be loaded'));
      worker.addEventListener('messageerror', () => handler('a message from the worker could not be read'));
    },
    terminate: () => worker.terminate(),
  };
}

export function createJustBashWorkerSandbox(opts: JustBashWorkerOptions = {}): Promise<WorkerSandbox> {
  return createWorkerSandbox({ ...opts, spawn: spawnBrowserWorker });
}
