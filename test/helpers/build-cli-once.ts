/**
 * Vitest global setup: builds the headless runner's bundle (`dist-cli/harness.mjs`) once per test
 * run, before any test file starts, and only when it is older than the sources — so tests that
 * spawn the bundle never build it themselves (a build in a `beforeAll` ran into the hook timeout
 * on a busy machine, and ran again in `npm test`'s build phase). Beside it, the sandbox worker's
 * bundle the unit tests start threads from (`test/unit/sandbox-worker-node.ts`), which each test
 * process used to build for itself.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { buildCli, CLI_DIR, cliBundleStale } from '../../scripts/build-cli.mjs';
import { INPUTS_FILE } from '../../scripts/cli-bundle-state.mjs';
import { buildWorkerBundle, WORKER_BUNDLE } from '../unit/sandbox-worker-node.ts';

const mtime = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1;

export default async function buildCliOnce(): Promise<void> {
  const stale = cliBundleStale();
  // The worker's sources are a part of the runner's (its bundle has the same entry): rebuilt with
  // it, or when older than the runner's last build (made meanwhile by `npm run build`), not on every
  // run — a one-file run would pay ~0.5–0.9 s for it.
  const workerStale = stale || mtime(WORKER_BUNDLE) < mtime(join(CLI_DIR, INPUTS_FILE));
  // In that order, so the worker's bundle is newer than the runner's manifest it is compared with.
  if (stale) await buildCli({ quiet: true });
  if (workerStale) await buildWorkerBundle();
}
