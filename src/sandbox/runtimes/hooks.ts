/**
 * What the sandbox lends its runtime commands (`node`, `npm`, `git`) for one exec: whether the
 * exec must stop (Stop or its timeout; polled, so it works inside a busy loop), a signal that
 * fires then (to cut waits short), and a live sink so output streams while the command runs.
 */
import type { IFileSystem } from 'just-bash';

export type OutputSink = (chunk: { stream: 'stdout' | 'stderr'; text: string }) => void;

export type RuntimeHooks = {
  /**
   * The sandbox's own file system. just-bash revokes a command's `ctx.fs` the moment the exec
   * is stopped; writing through this one keeps what a stopped program wrote, as a real kill
   * would. Undefined: use `ctx.fs`.
   */
  fs?(): IFileSystem;
  stopped(): boolean;
  signal(): AbortSignal | undefined;
  live(): OutputSink | undefined;
};

/** Hooks for a command run outside any exec (tests that call a command directly). */
export const NO_HOOKS: RuntimeHooks = { stopped: () => false, signal: () => undefined, live: () => undefined };

/** Collects a command's two streams and forwards each chunk to the live sink as it comes. */
export class StreamPair {
  stdout = '';
  stderr = '';
  constructor(private readonly sink: OutputSink | undefined) {}

  write(fd: 1 | 2, text: string): void {
    if (!text) return;
    if (fd === 1) this.stdout += text;
    else this.stderr += text;
    try {
      this.sink?.({ stream: fd === 1 ? 'stdout' : 'stderr', text });
    } catch {
      // A failing display is not a failing program.
    }
  }
}
