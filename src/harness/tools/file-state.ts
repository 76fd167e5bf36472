/**
 * Per-agent memory of files: which ones the agent has read (write/edit require a prior read of
 * an existing file, so the model never overwrites what it has not seen), and a stack of
 * snapshots taken before each write so `revert` can undo the last change.
 */

export type Snapshot = {
  path: string;
  /** Content before the write; `null` when the write created the file. */
  previous: string | null;
  /** Which tool call made the change, for the UI. */
  toolUseId: string;
};

export class FileState {
  /** path → content as last read or written by the agent. */
  private readonly seen = new Map<string, string>();
  private readonly snapshots: Snapshot[] = [];

  recordRead(path: string, content: string): void {
    this.seen.set(path, content);
  }

  hasRead(path: string): boolean {
    return this.seen.has(path);
  }

  /** The content the agent last saw, to detect changes made behind its back. */
  lastSeen(path: string): string | undefined {
    return this.seen.get(path);
  }

  forget(path: string): void {
    this.seen.delete(path);
  }

  pushSnapshot(snapshot: Snapshot): void {
    this.snapshots.push(snapshot);
  }

  /** Removes and returns the newest snapshot, of `path` if given. */
  popSnapshot(path?: string): Snapshot | undefined {
    for (let i = this.snapshots.length - 1; i >= 0; i--) {
      const s = this.snapshots[i]!;
      if (path === undefined || s.path === path) {
        this.snapshots.splice(i, 1);
        return s;
      }
    }
    return undefined;
  }

  snapshotCount(): number {
    return this.snapshots.length;
  }
}
