/**
 * Spawns the sandbox worker (`src/sandbox/justbash-worker/node-entry.ts`) on a real
 * node:worker_threads thread, loading the TypeScript through tsx, and adapts it to the
 * `WorkerLike` the page side of the worker sandbox talks to.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerLike } from '../../src/sandbox/justbash-worker/client.ts';
import type { FromWorker } from '../../src/sandbox/justbash-worker/protocol.ts';

const entry = new URL('../../src/sandbox/justbash-worker/node-entry.ts', import.meta.url).href;
// The CommonJS condition resolves to index.cjs; its ESM twin sits beside it.
const tsxApi = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
// An eval worker is a CommonJS script; it loads tsx's ESM API and imports the entry through it.
const BOOT = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(fileURLToPath(entry))}, ${JSON.stringify(entry)}))
  .catch((e) => { throw e; });`;

export function spawnNodeWorker(): WorkerLike {
  const worker = new Worker(BOOT, { eval: true });
  return {
    post: (msg) => worker.postMessage(msg),
    onMessage: (handler) => worker.on('message', (msg: FromWorker) => handler(msg)),
    onError: (handler) => {
      worker.on('error', (e) => handler(e.message));
      worker.on('exit', (code) => handler(`the worker thread exited (code ${code})`));
    },
    terminate: () => void worker.terminate(),
  };
}
