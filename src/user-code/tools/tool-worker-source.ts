/**
 * The classic-worker script that runs one JS custom tool in the browser's user-code sandbox
 * (`src/user-code/`). The sandbox's policy has no 'unsafe-eval', so the body is spliced into this
 * script as an async function (a syntax error fails the worker's load); code that closes that
 * function early only reaches the same worker: the worker, not the wrapper, is the boundary.
 * The first message is the input; later ones are replies to file requests.
 */
import { runToolBody } from './run-tool-body.ts';
import { WORKER_RPC } from './worker-rpc.ts';

export function toolWorkerSource(code: string): string {
  return `// A custom tool of Harness Playground, in its sandbox worker.
const __name = (f) => f;
const __post = (m) => self.postMessage(m);
${WORKER_RPC}
const runToolBody = (${runToolBody.toString()});
const __tool = async function (input, files) {
${code}
};
let __started = false;
self.onmessage = (e) => {
  if (__started) return __onReply(e.data);
  __started = true;
  runToolBody(__tool, e.data && e.data.input, __callFiles).then(
    (result) => __post({ t: 'done', result }),
    (err) => __post({ t: 'done', result: { ok: false, error: String((err && err.message) || err), logs: '' } }),
  );
};
`;
}
