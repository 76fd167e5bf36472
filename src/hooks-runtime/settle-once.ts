/**
 * The bookkeeping both JS hook runners share around one worker run: the first of the hook's
 * answer, the timeout, an abort or a worker failure wins; then the timer and the abort listener
 * are removed and the worker is ended, so a late message or a second error changes nothing.
 */
import type { JsHookResult } from '../harness/ports.ts';
import { abortedResult, timedOutResult } from './results.ts';

/** Starts the timeout and abort watch; returns `finish`, which settles the run once. */
export function settleOnce(o: {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  terminate: () => void;
  resolve: (r: JsHookResult) => void;
}): (r: JsHookResult) => void {
  let settled = false;
  const finish = (r: JsHookResult) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    o.terminate();
    o.resolve(r);
  };
  const timer = setTimeout(() => finish(timedOutResult(o.timeoutMs)), o.timeoutMs);
  const onAbort = () => finish(abortedResult());
  o.signal?.addEventListener('abort', onAbort, { once: true });
  return finish;
}

/** JSON round trip: the hook gets plain data, exactly what a command hook would parse. */
export const plainInput = (input: unknown): unknown => JSON.parse(JSON.stringify(input ?? null)) as unknown;
