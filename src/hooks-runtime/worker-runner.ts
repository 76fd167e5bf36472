/**
 * `JsHookRunner` for the browser: one module Web Worker per run (`js-hook-worker.ts`),
 * `terminate()`d on timeout or abort, so even `while (true) {}` stops and the page stays
 * responsive. Symmetric with `node-runner.ts`.
 */
import type { JsHookResult, JsHookRunner } from '../harness/ports.ts';
import { abortedResult, workerFailedResult } from './results.ts';
import { plainInput, settleOnce } from './settle-once.ts';

export function createWorkerJsHookRunner(): JsHookRunner {
  return {
    run(code, input, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(abortedResult());
      return new Promise<JsHookResult>((resolve) => {
        let worker: Worker;
        try {
          worker = new Worker(new URL('./js-hook-worker.ts', import.meta.url), { type: 'module', name: 'js-hook' });
        } catch (e) {
          resolve(workerFailedResult(e));
          return;
        }
        const finish = settleOnce({ timeoutMs, signal, terminate: () => worker.terminate(), resolve });
        worker.onmessage = (e: MessageEvent<{ exitCode: number; stdout: string; stderr: string }>) =>
          finish({ exitCode: e.data.exitCode, stdout: e.data.stdout, stderr: e.data.stderr, timedOut: false });
        worker.onerror = (e) => {
          e.preventDefault();
          finish(workerFailedResult(new Error(e.message || 'the worker script failed to load')));
        };
        worker.onmessageerror = () => finish(workerFailedResult(new Error('the hook result could not be read')));
        worker.postMessage({ code, input: plainInput(input) });
      });
    },
  };
}
