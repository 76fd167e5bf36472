/**
 * The harness loads on demand (src/ui/state/lazy-start.ts): the first screen paints without it and
 * fetches it as the page starts. A Step clicked before it has arrived is not dropped: the header shows
 * "Loading the harness…" (the run's phase) while it loads, and the Step then pulls its event.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { startRunModule } from '../../src/ui/state/lazy-start.ts';
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
