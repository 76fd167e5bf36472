/** The results both JS hook runners give when the hook itself did not answer. */
import type { JsHookResult } from '../harness/ports.ts';

export function timedOutResult(timeoutMs: number): JsHookResult {
  return { exitCode: 124, stdout: '', stderr: `The JS hook did not finish within ${timeoutMs} ms and was stopped.`, timedOut: true };
}

export function abortedResult(): JsHookResult {
  return { exitCode: 130, stdout: '', stderr: 'The JS hook was stopped because the run was stopped.', timedOut: false };
}

export function workerFailedResult(e: unknown): JsHookResult {
  const msg = e instanceof Error ? e.message : String(e);
  return { exitCode: 1, stdout: '', stderr: `The JS hook's worker failed: ${msg}`, timedOut: false };
}
