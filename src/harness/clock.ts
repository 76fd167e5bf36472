/**
 * Clock and id implementations. Both are pure TypeScript (timers exist in Node and browsers),
 * so they live with the harness; the UI and tests pick one.
 */
import type { Clock, IdGen } from './ports.ts';

function abortError(): Error {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  return e;
}

/** Wall-clock time; `sleep` is a cancellable timer. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A clock that only moves when told to: `sleep` advances time at once and records how long was
 * asked for, so tests of backoff are exact and instant. `tick` advances time for each `now()`
 * call, giving distinct, reproducible timestamps.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(
    private t = 0,
    private readonly tick = 1,
  ) {}
  now(): number {
    this.t += this.tick;
    return this.t;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortError();
    this.sleeps.push(ms);
    this.t += ms;
  }
}

/** Sequential ids: `toolu_0001`, `toolu_0002`, … per prefix. Deterministic, for tests and replays. */
export class SequentialIds implements IdGen {
  private readonly counters = new Map<string, number>();
  next(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}_${String(n).padStart(4, '0')}`;
  }
}

/** Random ids for live sessions, shaped like the API's (`toolu_01AbC…`). */
export const randomIds: IdGen = {
  next(prefix) {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = new Uint8Array(22);
    globalThis.crypto.getRandomValues(bytes);
    let s = '';
    for (const b of bytes) s += alphabet[b % alphabet.length];
    return `${prefix}_01${s}`;
  },
};
