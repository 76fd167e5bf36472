/**
 * The long-session goal (issue 10 §3) as a test: on the bench's 220-turn, 1.6 MB script with a
 * 100k window, our pipeline's cost-weighted input is below every peer strategy's, and no request
 * is over the window. The bench (`npm run bench`) prints the full table.
 */
import { describe, expect, it } from 'vitest';
import { costOf, longSessionScript, runNever, runOnRejection, runOurs, runThreshold } from '../bench/long-session.ts';

describe('long session: ours costs less than every peer strategy', () => {
  it('beats never-compacting, compact-on-rejection and summarise-at-67 %, with no rejected request', async () => {
    const { exchanges, outputChars } = longSessionScript();
    expect(exchanges.length).toBeGreaterThanOrEqual(200);
    expect(outputChars).toBeGreaterThan(1_000_000);
    const ours = await runOurs(exchanges);
    const never = runNever(exchanges);
    const pi = await runOnRejection(exchanges);
    const cc = await runThreshold(exchanges);
    expect(ours.rejected).toBe(0);
    expect(never.rejected).toBeGreaterThan(0);
    expect(pi.rejected).toBeGreaterThan(0);
    expect(costOf(ours)).toBeLessThan(costOf(pi));
    expect(costOf(ours)).toBeLessThan(costOf(cc));
    // Collapse gets its turn on such a session, not only microcompact.
    expect(ours.fired.collapse ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
