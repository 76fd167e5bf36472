/**
 * The harness loads on demand (src/ui/state/lazy-start.ts): the first screen paints without it and
 * fetches it as the page starts. A Step clicked before it has arrived is not dropped: the header shows
 * "Loading the harness…" (the run's phase) while it loads, and the Step then pulls its event.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { firstWorkerGate, loadedFromCache, startRunModule } from '../../src/ui/state/lazy-start.ts';
import { stubLocalStorage } from '../helpers/local-storage.ts';
import { memoryPageState } from '../helpers/page-state.ts';

beforeAll(stubLocalStorage);

describe('the harness loads on demand', () => {
  test('a Step clicked while it loads shows "Loading the harness…", then pulls the first event', async () => {
    const { page } = memoryPageState();
    const { ctl } = page;
    expect(ctl.canStep).toBe(true);
    // Nothing has loaded the starter in this test file yet: the click waits for it, and says so.
    const stepping = ctl.step();
    expect(ctl.busy).toBe(true);
    expect(ctl.phase).toBe('Loading the harness…');
    await stepping;
    expect(ctl.events).toHaveLength(1);
    expect(ctl.phase).toBe('');
    // Once loaded, a later run does not say it again.
    await startRunModule();
    const next = ctl.step();
    expect(ctl.phase).not.toBe('Loading the harness…');
    await next;
    expect(ctl.events).toHaveLength(2);
  });
});

describe('when the harness is fetched: at once on a first visit, at idle when the page came from the HTTP cache', () => {
  const entryUrl = new URL('../../src/ui/state/lazy-start.ts', import.meta.url).href;
  const withEntry = (entry: Partial<PerformanceResourceTiming> | undefined, check: () => void) => {
    const real = performance.getEntriesByName.bind(performance);
    performance.getEntriesByName = ((name: string) => (name === entryUrl && entry ? [entry] : real(name))) as typeof performance.getEntriesByName;
    try {
      check();
    } finally {
      performance.getEntriesByName = real;
    }
  };

  test('the page script’s Resource Timing entry says where it came from', () => {
    // Fetched: headers and the whole body over the network.
    withEntry({ transferSize: 331_817, encodedBodySize: 331_517 }, () => expect(loadedFromCache()).toBe(false));
    // A cache hit moves nothing; a 304 moves headers only, and Chromium reports its body as 0.
    withEntry({ transferSize: 0, encodedBodySize: 331_517 }, () => expect(loadedFromCache()).toBe(true));
    withEntry({ transferSize: 300, encodedBodySize: 0 }, () => expect(loadedFromCache()).toBe(true));
    // No entry (Node, a browser without the API): treated as a first visit.
    withEntry(undefined, () => expect(loadedFromCache()).toBe(false));
  });

  test('the first sandbox worker waits for the harness on a first visit, not on a return', async () => {
    let cachedGate: Promise<void> | undefined;
    withEntry({ transferSize: 0, encodedBodySize: 331_517 }, () => (cachedGate = firstWorkerGate()));
    await expect(cachedGate).resolves.toBeUndefined();
    // No Resource Timing entry here (Node): a first visit, whose gate opens once the harness is in.
    let harnessIn = false;
    void startRunModule().then(() => (harnessIn = true));
    await firstWorkerGate();
    expect(harnessIn).toBe(true);
    expect(performance.getEntriesByName('hp:harness-loaded')).toHaveLength(1);
  });
});
