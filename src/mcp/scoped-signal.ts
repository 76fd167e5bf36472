/**
 * One request's own abort signal, following the caller's. The SDK adds an `abort` listener to
 * the signal of every request and never removes it, so passing a run's signal straight through
 * leaves one listener per request on it for the rest of the run — past Node's limit of 10 with
 * seven servers (`MaxListenersExceededWarning`), and a leak in a long run. Here the caller's
 * signal holds one listener per request in flight, removed when the request ends.
 */
export async function withScopedSignal<T>(signal: AbortSignal | undefined, fn: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!signal) return fn(undefined);
  const own = new AbortController();
  const relay = () => own.abort(signal.reason);
  if (signal.aborted) relay();
  else signal.addEventListener('abort', relay, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    signal.removeEventListener('abort', relay);
  }
}
