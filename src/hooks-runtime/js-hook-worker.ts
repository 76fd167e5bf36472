/**
 * The browser's JS hook worker (a module Worker, one per run): receives `{ code, input }`, runs
 * the hook with `runHookBody`, posts back `{ exitCode, stdout, stderr }`. `worker-runner.ts`
 * terminates it on timeout or abort.
 */
import { runHookBody } from './run-hook-body.ts';

type Request = { code: string; input: unknown };

const scope = globalThis as unknown as {
  addEventListener(type: 'message', fn: (e: { data: Request }) => void): void;
  postMessage(message: unknown): void;
};

scope.addEventListener('message', (e) => {
  runHookBody(e.data.code, e.data.input).then(
    (r) => scope.postMessage(r),
    (err: unknown) => scope.postMessage({ exitCode: 1, stdout: '', stderr: String(err instanceof Error ? err.message : err) }),
  );
});
