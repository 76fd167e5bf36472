/**
 * Vitest global setup: builds the headless runner's bundle (`dist-cli/harness.mjs`) once per test
 * run, before any test file starts, and only when it is older than the sources — so tests that
 * spawn the bundle never build it themselves (a build in a `beforeAll` ran into the hook timeout
 * on a busy machine, and ran again in `npm test`'s build phase). Beside it, the sandbox worker's
 * bundle the unit tests start threads from (`test/unit/sandbox-worker-node.ts`), which each test
 * process used to build for itself.
 */
import { buildCli, cliBundleStale } from '../../scripts/build-cli.mjs';
import { buildWorkerBundle } from '../unit/sandbox-worker-node.ts';

export default async function buildCliOnce(): Promise<void> {
  await Promise.all([cliBundleStale() ? buildCli({ quiet: true }) : undefined, buildWorkerBundle()]);
}
