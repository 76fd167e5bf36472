/**
 * The bookkeeping every user-code runner shares around one worker run (JS hooks here, JS tools in
 * `user-code/tools/host-side.ts`): the first of the worker's answer, the timeout, an abort or a
 * worker failure wins; then the timer and the abort listener are removed and the worker is ended,
 * so a late message or a second error changes nothing.
 */
import type { JsHookResult } from '../harness/ports.ts';
import { abortedResult, timedOutResult } from './results.ts';

/** Starts the timeout and abort watch; returns `finish`, which settles the run once with any result type. */
export function settleRunOnce<R>(o: {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  terminate: () => void;
  resolve: (r: R) => void;
  /** The result when the timeout fires first. */
  timedOut: (timeoutMs: number) => R;
  /** The result when the signal aborts first. */
  aborted: () => R;
}): (r: R) => void {
  let settled = false;
  const finish = (r: R) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    o.terminate();
    o.resolve(r);
  };
  const timer = setTimeout(() => finish(o.timedOut(o.timeoutMs)), o.timeoutMs);
  const onAbort = () => finish(o.aborted());
  o.signal?.addEventListener('abort', onAbort, { once: true });
  return finish;
}

/** A JS hook's run: times out and aborts with the hook results of `results.ts`. */
export function settleOnce(o: {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  terminate: () => void;
  resolve: (r: JsHookResult) => void;
}): (r: JsHookResult) => void {
  return settleRunOnce<JsHookResult>({ ...o, timedOut: timedOutResult, aborted: abortedResult });
}

/** JSON round trip: user code gets plain data, exactly what a command hook would parse or the model sent. */
export const plainInput = (input: unknown): unknown => JSON.parse(JSON.stringify(input ?? null)) as unknown;
