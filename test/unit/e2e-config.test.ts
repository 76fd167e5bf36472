/**
 * The e2e suite waits for states of the page, never for time. vitest's `expect.poll` gives up after
 * 1 s unless told otherwise — a wall-clock limit a loaded 2-core machine exceeds (opening an imported
 * session boots a sandbox: the sessions.e2e.ts flake). The config must bound only a hang.
 */
import { describe, expect, it } from 'vitest';
import e2eConfig from '../e2e/vitest.e2e.config.ts';

describe('e2e config', () => {
  it('lets expect.poll wait as long as a Playwright wait (30 s), within the test timeout', () => {
    const t = e2eConfig.test!;
    const poll = t.expect?.poll?.timeout ?? 1000;
    expect(poll).toBeGreaterThanOrEqual(30_000);
    expect(poll).toBeLessThan(t.testTimeout!);
  });
});
