/**
 * The headless runner's sandbox: just-bash on its own thread when the bundle ships the worker
 * entry (`dist-cli/sandbox-worker.mjs`, see `scripts/build-cli.mjs`), so Ctrl-C stops even a busy
 * `node` program at once; from the sources (`npm run scenario`, no bundle) or if the thread cannot
 * start, in this thread, where a busy loop ends only by its timeout (said on stderr).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../harness/ports.ts';
import { SANDBOX_YOUNG_GENERATION_MB, reapplyHeapTuning } from './heap.ts';
import { takeEarlySandboxThread } from './early-thread.ts';

export async function createCliSandbox(warn: (line: string) => void): Promise<Sandbox> {
  const entry = new URL('./sandbox-worker.mjs', import.meta.url);
  if (entry.protocol === 'file:' && existsSync(fileURLToPath(entry))) {
    const { createJustBashThreadSandbox } = await import('../sandbox/justbash-worker/node-thread.ts');
    try {
      // The launcher's thread if it started one (early-thread.ts), for the first spawn only.
      return await createJustBashThreadSandbox(entry, {}, { youngGenerationMb: SANDBOX_YOUNG_GENERATION_MB, onOnline: reapplyHeapTuning, adopt: () => takeEarlySandboxThread(entry) });
    } catch (err) {
      warn(`the sandbox thread did not start (${err instanceof Error ? err.message : String(err)}): running in this thread, where Ctrl-C cannot stop a busy program before its timeout`);
    }
  }
  // No thread came up to set the heap flags on its `online` (heap.ts): set them here.
  reapplyHeapTuning();
  const { createJustBashSandbox } = await import('../sandbox/justbash/index.ts');
  return createJustBashSandbox();
}
