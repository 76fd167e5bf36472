/**
 * The classic-worker script that runs one JS hook in the user-code sandbox (`src/user-code/`).
 *
 * The sandbox's policy has no 'unsafe-eval', so the hook's body cannot be compiled at run time;
 * instead it is spliced into this script as the body of an async function, and a syntax error in
 * it fails the worker's load (reported as "does not compile" by `frame-runner.ts`). Code that
 * closes that function early only reaches the same worker it already runs in: the worker, not the
 * wrapper, is the boundary.
 */
import { runHookBody } from './run-hook-body.ts';

export function hookWorkerSource(code: string): string {
  return `// A JS hook of Harness Playground, in its sandbox worker.
const __name = (f) => f;
const runHookBody = (${runHookBody.toString()});
const __hook = async function (input) {
${code}
};
self.onmessage = (e) => {
  self.onmessage = null;
  runHookBody(__hook, e.data).then(
    (r) => self.postMessage(r),
    (err) => self.postMessage({ exitCode: 1, stdout: '', stderr: String((err && err.message) || err) }),
  );
};
`;
}
