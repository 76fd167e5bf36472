/**
 * just-bash in a browser Web Worker: the sandbox the app uses in the browser, so a busy loop
 * never freezes the page and Stop interrupts it (see `client.ts` for how).
 */
import { createWorkerSandbox } from './client.ts';
import type { WorkerSandbox } from './client.ts';
import { canUseWorkers, newSandboxWorker, takeEarlyWorker } from './early-worker.ts';
import { recyclingSpawner, type DetachableWorker } from './spare-worker.ts';
import type { FromWorker } from './protocol.ts';

export type JustBashWorkerOptions = {
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** What the initial files' and directories' modification times read (`client.ts`). */
  mtimeMs?: number;
};

export { canUseWorkers };

/** The worker the page started as it loaded (`early-worker.ts`), else a new one. */
function newBrowserWorker(): Worker {
  return takeEarlyWorker() ?? newSandboxWorker();
}

function adaptBrowserWorker(worker: Worker): DetachableWorker {
  const added: [string, EventListener][] = [];
  const listen = (type: string, fn: EventListener) => {
    worker.addEventListener(type, fn);
    added.push([type, fn]);
  };
  return {
    post: (msg) => worker.postMessage(msg),
    onMessage: (handler) => listen('message', (e) => handler((e as MessageEvent<FromWorker>).data)),
    onError: (handler) => {
      listen('error', (e) => handler((e as ErrorEvent).message || 'the worker script could not be loaded'));
      listen('messageerror', () => handler('a message from the worker could not be read'));
    },
    terminate: () => worker.terminate(),
    detach: () => {
      for (const [type, fn] of added.splice(0)) worker.removeEventListener(type, fn);
    },
  };
}

/** The page's one spawner: a sandbox disposed unused (the scenario switched before a run) leaves its worker for the next. */
const spawnBrowserWorker = recyclingSpawner(newBrowserWorker, adaptBrowserWorker, (w) => w.terminate());

export function createJustBashWorkerSandbox(opts: JustBashWorkerOptions = {}): Promise<WorkerSandbox> {
  return createWorkerSandbox({ ...opts, spawn: spawnBrowserWorker });
}
