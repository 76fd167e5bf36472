/**
 * A small unbounded queue that producers push into from callbacks and one consumer drains with
 * `for await`. Lets tools that run concurrently stream their events through the loop's generator.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private closed = false;
  /** Items pushed / taken so far, and who waits for which item (by push number) to be taken. */
  private pushed = 0;
  private took = 0;
  private readonly taken = new Map<number, () => void>();

  private handOut(): void {
    const n = ++this.took;
    const done = this.taken.get(n);
    if (done) {
      this.taken.delete(n);
      done();
    }
  }

  push(item: T): void {
    if (this.closed) return;
    this.pushed++;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      this.handOut();
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  /**
   * Pushes and resolves once the consumer has taken the item (or the queue closed, or `signal`
   * fired): a producer that awaits it goes at the consumer's pace.
   */
  pushAndWait(item: T, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (signal?.aborted) {
      // A stopped run winds down at once: its closing events still go in, nobody waits for them.
      this.push(item);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.taken.set(this.pushed + 1, done);
      this.push(item);
    });
  }

  close(): void {
    for (const done of this.taken.values()) done();
    this.taken.clear();
    this.closed = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) {
          const value = this.items.shift()!;
          this.handOut();
          return Promise.resolve({ value, done: false });
        }
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}
