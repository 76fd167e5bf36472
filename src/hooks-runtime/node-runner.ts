/**
 * `JsHookRunner` for Node (unit tests, headless runs): one `node:worker_threads` Worker per run,
 * `terminate()`d on timeout or abort, so even `while (true) {}` stops. Symmetric with
 * `frame-runner.ts` (the browser's, which runs in the opaque-origin sandbox of `src/user-code/`).
 *
 * The worker is started from source text (`eval: true`) built from `runHookBody.toString()`, so
 * it needs no compiled file and works the same under tsx, Vitest and a bundle.
 */
import { Worker } from 'node:worker_threads';
import type { JsHookResult, JsHookRunner } from '../harness/ports.ts';
import { runHookBody } from './run-hook-body.ts';
import { abortedResult, workerFailedResult } from './results.ts';
import { plainInput, settleOnce } from './settle-once.ts';

const WORKER_SOURCE = `
(() => {
  const { parentPort, workerData } = require('node:worker_threads');
  // Keep the worker's plumbing out of the hook's reach (this is isolation, not a security sandbox:
  // in Node the hook still sees \`process\`).
  try { delete globalThis.require; } catch {}
  // Transpilers may wrap named functions in __name(); give it a harmless definition.
  const __name = (f) => f;
  const runHookBody = (${runHookBody.toString()});
  runHookBody(workerData.code, workerData.input).then(
    (r) => parentPort.postMessage(r),
    (e) => parentPort.postMessage({ exitCode: 1, stdout: '', stderr: String((e && e.message) || e) }),
  );
})();
`;

export function createNodeJsHookRunner(): JsHookRunner {
  return {
    run(code, input, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(abortedResult());
      return new Promise<JsHookResult>((resolve) => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { code, input: plainInput(input) },
          stdout: true,
          stderr: true,
        });
        const finish = settleOnce({ timeoutMs, signal, terminate: () => void worker.terminate(), resolve });
        worker.on('message', (m: { exitCode: number; stdout: string; stderr: string }) =>
          finish({ exitCode: m.exitCode, stdout: m.stdout, stderr: m.stderr, timedOut: false }),
        );
        worker.on('error', (e) => finish(workerFailedResult(e)));
        // Node ends a worker whose event loop is empty, so a promise that can never settle ends
        // here at once (the browser's Worker would wait for the timeout instead).
        worker.on('exit', (code) =>
          finish(workerFailedResult(new Error(`it exited (code ${code}) without an answer: the hook awaited something that can never settle, or called process.exit`))),
        );
      });
    },
  };
}
