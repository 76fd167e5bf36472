/**
 * Change notification shared by the sandboxes: paths are collected while work runs and handed
 * to the listeners in one batch when the work ends, so a command that writes 100 files causes
 * one notification, not 100.
 */
export type WatchListener = (event: { paths: string[] }) => void;

export class WatchHub {
  private readonly listeners = new Set<WatchListener>();
  private pending = new Set<string>();

  /** Notes that `path` changed; nothing is sent until {@link flush}. */
  record(path: string): void {
    this.pending.add(path);
  }

  /** Sends the collected paths (sorted) to every listener, once; does nothing when none changed. */
  flush(): void {
    if (this.pending.size === 0) return;
    const paths = [...this.pending].sort();
    this.pending = new Set();
    for (const listener of [...this.listeners]) {
      try {
        listener({ paths });
      } catch {
        // A failing listener must not break the file operation or command that triggered it.
      }
    }
  }

  /** Runs a mutation, then tells watchers what it changed, whether it succeeded or threw. */
  async flushAfter<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      this.flush();
    }
  }

  subscribe(listener: WatchListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  clear(): void {
    this.listeners.clear();
    this.pending.clear();
  }
}
