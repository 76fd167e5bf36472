/**
 * The signal we hand to just-bash for one exec, combining the caller's abort and our deadline.
 *
 * Why a getter: just-bash runs in the caller's thread and its interpreter only awaits
 * already-resolved promises between commands, so a timer (or a click) cannot run while a
 * script like `while true; do :; done` spins. Its execution budget, however, reads
 * `signal.aborted` synchronously before every command and statement. Making `aborted` compare
 * `Date.now()` with our deadline stops such a loop on time without needing the event loop.
 * A real timer still fires `abort` for commands that do wait (sleep, network, workers),
 * which listen for the event rather than poll.
 */
export type StopSignal = {
  signal: AbortSignal;
  /** Why it stopped, judged when the command has returned. */
  cause(): 'timeout' | 'abort' | null;
  dispose(): void;
};

export function createStopSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined): StopSignal {
  const controller = new AbortController();
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + Math.max(0, timeoutMs);
  let stoppedBy: 'timeout' | 'abort' | null = null;

  const check = (): boolean => {
    if (stoppedBy) return true;
    if (caller?.aborted) stoppedBy = 'abort';
    else if (Date.now() >= deadline) stoppedBy = 'timeout';
    return stoppedBy !== null;
  };

  const signal = controller.signal;
  const nativeAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
  Object.defineProperty(signal, 'aborted', {
    configurable: true,
    get: () => (nativeAborted?.call(signal) as boolean | undefined) === true || check(),
  });

  const onCallerAbort = () => {
    stoppedBy ??= 'abort';
    controller.abort(caller?.reason);
  };
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  const timer =
    deadline === Infinity
      ? undefined
      : setTimeout(() => {
          stoppedBy ??= 'timeout';
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        }, Math.max(0, timeoutMs ?? 0));

  return {
    signal,
    // Only what was observed while the command ran counts: a deadline that passes after it
    // finished is not a timeout.
    cause: () => stoppedBy,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
