/**
 * `JsHookRunner` for Node (unit tests, headless runs): one `node:worker_threads` Worker per run,
 * `terminate()`d on timeout or abort, so even `while (true) {}` stops. Symmetric with
 * `frame-runner.ts` (the browser's, which runs in the opaque-origin sandbox of `src/user-code/`).
 *
 * Isolation inside the worker: the hook runs in a fresh `vm` context, a realm with only the
 * language built-ins plus a console and timers we define there — no `require`, `process`,
 * `Buffer`, `fetch` or worker plumbing. Host objects never cross into it: the input arrives as JSON
 * text parsed inside the context, the timers are context-side wrappers that hand back plain ids,
 * so no host function is reachable to climb to the host's `Function`. The worker's heap is capped
 * (`resourceLimits`); running out ends the worker with a clear error.
 *
 * What remains different from the browser's opaque-origin frame: a `vm` context is a V8 realm
 * boundary, not an origin or process boundary (Node's docs say it is not a security mechanism),
 * and the worker shares the runner's process and file descriptors. A V8 bug or a missed host
 * object would reach the process; the browser's frame would still be a sandboxed origin with
 * its own CSP. Headless runs execute hooks only from trusted settings, which is the real gate.
 *
 * The worker is started from source text (`eval: true`) built from `runHookBody.toString()`, so
 * it needs no compiled file and works the same under tsx, Vitest and a bundle.
 */
import { Worker } from 'node:worker_threads';
import type { JsHookResult, JsHookRunner } from '../harness/ports.ts';
import { runHookBody } from './run-hook-body.ts';
import { abortedResult, workerFailedResult } from './results.ts';
import { plainInput, settleOnce } from './settle-once.ts';

/** Heap cap of a hook's worker, in MB (old generation; V8 adds a little for the young one). */
export const JS_HOOK_MEMORY_MB = 64;

/**
 * Runs inside the context: builds the guest's console and timers from host primitives it keeps
 * in closures (never on a global), then runs the hook. Only strings, numbers and context-realm
 * functions are visible to the hook.
 */
const CONTEXT_BOOT = `'use strict';
(hostSet, hostClear) => {
  const ids = new Set();
  const guard = (f) => { try { return f(); } catch (e) { throw new Error(String(e && e.message || e)); } };
  const set = (repeat) => (fn, ms, ...args) => {
    if (typeof fn !== 'function') throw new TypeError('the callback must be a function');
    const id = guard(() => hostSet(() => { if (!repeat) ids.delete(id); fn(...args); }, Number(ms) || 0, repeat));
    ids.add(id);
    return id;
  };
  const clear = (id) => { if (ids.delete(id)) guard(() => hostClear(id)); };
  Object.assign(globalThis, {
    console: {},
    setTimeout: set(false), setInterval: set(true), clearTimeout: clear, clearInterval: clear,
    queueMicrotask: (fn) => Promise.resolve().then(fn),
  });
  const __name = (f) => f;
  const runHookBody = (${runHookBody.toString()});
  return (code, inputJson) => runHookBody(code, JSON.parse(inputJson)).then(
    (r) => JSON.stringify(r),
    (e) => JSON.stringify({ exitCode: 1, stdout: '', stderr: String((e && e.message) || e) }),
  );
}
`;

const WORKER_SOURCE = `'use strict';
(() => {
  const { parentPort, workerData } = require('node:worker_threads');
  const vm = require('node:vm');
  const context = vm.createContext(Object.create(null), { name: 'js-hook', codeGeneration: { strings: true, wasm: false } });
  const timers = new Map();
  let next = 1;
  // Host side of the timers: the guest gets numbers, never Timeout objects.
  const hostSet = (fn, ms, repeat) => {
    const id = next++;
    timers.set(id, (repeat ? setInterval : setTimeout)(() => { if (!repeat) timers.delete(id); fn(); }, ms));
    return id;
  };
  const hostClear = (id) => { const t = timers.get(id); if (t !== undefined) { clearTimeout(t); clearInterval(t); timers.delete(id); } };
  const boot = vm.runInContext(${JSON.stringify(CONTEXT_BOOT)}, context, { filename: 'js-hook-boot.js' });
  const run = boot(hostSet, hostClear);
  run(workerData.code, workerData.inputJson).then(
    (json) => parentPort.postMessage(JSON.parse(String(json))),
    (e) => parentPort.postMessage({ exitCode: 1, stdout: '', stderr: String((e && e.message) || e) }),
  );
})();
`;

function failure(e: unknown): JsHookResult {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return { exitCode: 1, stdout: '', stderr: `The JS hook ran out of memory (its cap is ${JS_HOOK_MEMORY_MB} MB) and was stopped.`, timedOut: false };
  }
  return workerFailedResult(e);
}

export function createNodeJsHookRunner(): JsHookRunner {
  return {
    run(code, input, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(abortedResult());
      return new Promise<JsHookResult>((resolve) => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { code, inputJson: JSON.stringify(plainInput(input)) },
          stdout: true,
          stderr: true,
          resourceLimits: { maxOldGenerationSizeMb: JS_HOOK_MEMORY_MB, maxYoungGenerationSizeMb: 8, codeRangeSizeMb: 16 },
        });
        const finish = settleOnce({ timeoutMs, signal, terminate: () => void worker.terminate(), resolve });
        worker.on('message', (m: { exitCode: number; stdout: string; stderr: string }) =>
          finish({ exitCode: m.exitCode, stdout: m.stdout, stderr: m.stderr, timedOut: false }),
        );
        worker.on('error', (e) => finish(failure(e)));
        // Node ends a worker whose event loop is empty, so a promise that can never settle ends
        // here at once (the browser's Worker would wait for the timeout instead).
        worker.on('exit', (code) =>
          finish(workerFailedResult(new Error(`it exited (code ${code}) without an answer: the hook awaited something that can never settle, or called process.exit`))),
        );
      });
    },
  };
}
