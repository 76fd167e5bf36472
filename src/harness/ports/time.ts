/**
 * The time and identity ports: `Clock` and `IdGen`, injected so traces are reproducible and tests
 * never wait on the wall clock. Implementations: `../clock.ts`. Re-exported by `../ports.ts`.
 */

/**
 * Time, injected so traces are reproducible and tests never wait on the wall clock.
 * `sleep` resolves after `ms` (a fake clock may resolve at once and advance `now`), and rejects
 * with an `AbortError`-named error if `signal` fires first.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Identifiers, injected for the same reason. `next('toolu')` → e.g. `toolu_0001`. */
export interface IdGen {
  next(prefix: string): string;
}
