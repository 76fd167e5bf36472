/**
 * `UserToolRunner` for Node (unit tests, headless runs): one `node:worker_threads` Worker per
 * call, `terminate()`d on timeout or abort, so `while (true) {}` stops. NOT an isolation
 * boundary the way the browser's opaque-origin frame is: the worker still has `process`; this
 * bounds time and keeps the sandbox behind the message proxy, nothing more.
 */
import { Worker } from 'node:worker_threads';
import type { UserToolResult, UserToolRunner } from '../../harness/ports.ts';
import { runToolBody } from './run-tool-body.ts';
import { WORKER_RPC } from './worker-rpc.ts';
import { aborted, plainInput, toolRun, workerFailed } from './host-side.ts';

const WORKER_SOURCE = `
(() => {
  const { parentPort, workerData } = require('node:worker_threads');
  try { delete globalThis.require; } catch {}
  const __name = (f) => f;
  const __post = (m) => parentPort.postMessage(m);
  ${WORKER_RPC}
  parentPort.on('message', __onReply);
  const runToolBody = (${runToolBody.toString()});
  runToolBody(workerData.code, workerData.input, __callFiles).then(
    (result) => __post({ t: 'done', result }),
    (e) => __post({ t: 'done', result: { ok: false, error: String((e && e.message) || e), logs: '' } }),
  );
})();
`;

export function createNodeToolRunner(): UserToolRunner {
  return {
    run(code, input, files, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(aborted());
      return new Promise<UserToolResult>((resolve) => {
        const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { code, input: plainInput(input) }, stdout: true, stderr: true });
        const run = toolRun({ files, timeoutMs, signal, terminate: () => void worker.terminate(), reply: (m) => worker.postMessage(m), resolve });
        worker.on('message', run.onMessage);
        worker.on('error', (e) => run.finish(workerFailed(`its worker failed: ${e.message}`)));
        worker.on('exit', (c) => run.finish(workerFailed(`its worker exited (code ${c}) without an answer`)));
      });
    },
  };
}
