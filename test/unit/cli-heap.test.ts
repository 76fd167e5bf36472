/**
 * The runner's memory knobs (src/cli/heap.ts): the sandbox thread starts with a capped young
 * generation, and `onOnline` runs once the thread is up (where the main thread's V8 flag is set
 * again, a new thread having re-initialised the process's flags). Peak RSS itself is measured in
 * `npm run bench` (test/bench/cli-startup.ts), not here.
 */
import { describe, expect, it } from 'vitest';
import { spawnNodeThread } from '../../src/sandbox/justbash-worker/node-thread.ts';
import { SANDBOX_YOUNG_GENERATION_MB } from '../../src/cli/heap.ts';

// A thread that only reports the limits it was started with.
const REPORTER = new URL(`data:text/javascript,${encodeURIComponent("import { parentPort, resourceLimits } from 'node:worker_threads'; parentPort.postMessage(resourceLimits);")}`);

describe('the sandbox thread', () => {
  it('starts with the young generation capped, and says when it is online', async () => {
    let online = false;
    const thread = spawnNodeThread(REPORTER, { youngGenerationMb: SANDBOX_YOUNG_GENERATION_MB, onOnline: () => (online = true) });
    const limits = await new Promise<unknown>((resolve) => thread.onMessage((m) => resolve(m)));
    thread.terminate();
    expect(limits).toMatchObject({ maxYoungGenerationSizeMb: SANDBOX_YOUNG_GENERATION_MB });
    expect(online).toBe(true);
  });
});
