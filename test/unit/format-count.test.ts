import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/harness/util/count.ts';
import { fmtInt } from '../../src/ui/lib/format.ts';

describe('formatCount', () => {
  it("prints what toLocaleString('en-US') prints for integers", () => {
    for (const n of [0, 1, -1, 7, 999, 1000, -1000, 30_000, 123_456, 1_000_000, -9_876_543, 20_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });
  it('falls back to toLocaleString for non-integers and huge or non-finite numbers', () => {
    for (const n of [1.5, -1234.5678, 1e21, Number.NaN, Infinity, -0]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
  it("the page's fmtInt is it (no ICU on the first screen)", () => {
    expect(fmtInt).toBe(formatCount);
    expect(fmtInt(13_407)).toBe('13,407');
  });
});
