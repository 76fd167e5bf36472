/**
 * `JsHookRunner` for the browser: each run is a job of the user-code sandbox
 * (`src/user-code/frame-host.ts`: an opaque-origin frame, a fresh Worker per run), so a hook
 * reaches neither the app's storage, the network nor the page. The timeout and an abort stop the
 * job (even a busy loop) with the same results as the Node runner (`results.ts`, `settle-once.ts`).
 */
import { z } from 'zod';
import type { JsHookResult, JsHookRunner } from '../harness/ports.ts';
import { createFrameRuntime } from '../user-code/frame-host.ts';
import type { UserCodeJob, UserCodeRuntime } from '../user-code/types.ts';
import { hookWorkerSource } from './hook-worker-source.ts';
import { abortedResult, workerFailedResult } from './results.ts';
import { plainInput, settleOnce } from './settle-once.ts';

const answer = z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() });

/** What the worker's failure means for the hook: a syntax error is the hook's code not compiling. */
function failure(message: string): JsHookResult {
  const text = message.replace(/^Uncaught\s+/, '');
  if (/^SyntaxError\b/.test(text)) return { exitCode: 1, stdout: '', stderr: `The hook's code does not compile: ${text}\n`, timedOut: false };
  return workerFailedResult(new Error(text));
}

export function createFrameJsHookRunner(runtime: UserCodeRuntime = createFrameRuntime()): JsHookRunner {
  return {
    run(code, input, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(abortedResult());
      return new Promise<JsHookResult>((resolve) => {
        // `job` is read only when the run settles, which is never before `start` returns.
        const finish = settleOnce({ timeoutMs, signal, terminate: () => job.stop(), resolve });
        const job: UserCodeJob = runtime.start(
          { source: hookWorkerSource(code), data: plainInput(input) },
          {
            message(value) {
              const r = answer.safeParse(value);
              finish(r.success ? { ...r.data, timedOut: false } : workerFailedResult(new Error('it sent something that is not a hook result')));
            },
            error: (message) => finish(failure(message)),
          },
        );
      });
    },
  };
}
