/**
 * A FakeClock that refuses to be waited on for ever: past `maxSleeps` sleeps it throws, so code
 * that would hang (a lock that never goes stale) fails the test with a sentence instead of
 * spinning the worker; each sleep yields to the event loop as a real timer does; and `onSleep` lets a test act "while" something waits (abort, refresh).
 */
import { FakeClock } from '../../src/harness/index.ts';

export class BoundedClock extends FakeClock {
  count = 0;
  constructor(
    t = 0,
    tick = 1,
    private readonly maxSleeps = 5_000,
    private readonly onSleep?: (n: number) => void | Promise<void>,
  ) {
    super(t, tick);
  }
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.count++;
    if (this.count > this.maxSleeps) throw new Error(`still waiting after ${this.maxSleeps} sleeps: this wait never ends`);
    await this.onSleep?.(this.count);
    // Like a real timer, a sleep lets everything else that is ready run first.
    await new Promise((resolve) => setImmediate(resolve));
    return super.sleep(ms, signal);
  }
}
