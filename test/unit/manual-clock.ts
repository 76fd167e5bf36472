/**
 * A Clock that moves only when the test says so: `sleep` waits until `runNext` (or `advance`)
 * brings time to its deadline. Unlike `FakeClock` (whose sleeps return at once), a loop that
 * sleeps on it — a tab's heartbeat — does not spin; the test decides what happens first.
 */
import type { Clock } from '../../src/harness/index.ts';

type Sleeper = { at: number; resolve: () => void };

export class ManualClock implements Clock {
  private t = 0;
  private readonly sleepers: Sleeper[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      const s: Sleeper = { at: this.t + Math.max(0, ms), resolve };
      this.sleepers.push(s);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers.splice(this.sleepers.indexOf(s), 1);
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        },
        { once: true },
      );
    });
  }

  /** How many sleeps wait for time to move. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time to the earliest sleeper's deadline and wakes it (and any due at the same time). */
  runNext(): number {
    if (this.sleepers.length === 0) return this.t;
    this.sleepers.sort((a, b) => a.at - b.at);
    this.t = Math.max(this.t, this.sleepers[0]!.at);
    for (const s of this.sleepers.filter((x) => x.at <= this.t)) {
      this.sleepers.splice(this.sleepers.indexOf(s), 1);
      s.resolve();
    }
    return this.t;
  }
}
