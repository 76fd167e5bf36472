/**
 * `UserToolRunner` for the browser: each call is a job of the user-code sandbox
 * (`src/user-code/frame-host.ts`: an opaque-origin frame, a fresh Worker per job), so a tool
 * reaches neither the app's storage, the network nor the page; its file requests come back by
 * message and are answered from `UserToolFiles` (`host-side.ts`). Timeout and abort stop the job.
 */
import type { UserToolResult, UserToolRunner } from '../../harness/ports.ts';
import { createFrameRuntime } from '../frame-host.ts';
import type { UserCodeJob, UserCodeRuntime } from '../types.ts';
import { aborted, plainInput, toolRun, workerFailed } from './host-side.ts';
import { toolWorkerSource } from './tool-worker-source.ts';

export function createFrameToolRunner(runtime: UserCodeRuntime = createFrameRuntime()): UserToolRunner {
  return {
    run(code, input, files, { timeoutMs, signal }) {
      if (signal?.aborted) return Promise.resolve(aborted());
      return new Promise<UserToolResult>((resolve) => {
        // `job` is used only after `start` returns (replies and settling are asynchronous).
        const run = toolRun({ files, timeoutMs, signal, terminate: () => job.stop(), reply: (m) => job.send(m), resolve });
        const job: UserCodeJob = runtime.start(
          { source: toolWorkerSource(code), data: { input: plainInput(input) } },
          {
            message: run.onMessage,
            error: (message) => {
              const text = message.replace(/^Uncaught\s+/, '');
              run.finish(workerFailed(/^SyntaxError\b/.test(text) ? `the code does not compile: ${text}` : text));
            },
          },
        );
      });
    },
  };
}
