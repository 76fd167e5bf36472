/**
 * Attacker: a file built to freeze the viewer (20 MB on one line, 200,000 short lines). The paged
 * view must hand the page only a bounded slice, cover the whole file without gaps, and not cut
 * lines in two when there are any.
 */
import { describe, expect, it } from 'vitest';
import { hasMoreLinesThan, pageOf, PAGE_CHARS } from '../../src/ui/files/large-file.ts';

describe('paging a huge file', () => {
  it('20 MB on one line: bounded slices that add up to the file', () => {
    const text = 'a'.repeat(20_000_000);
    const first = pageOf(text, 0);
    expect(first.count).toBe(Math.ceil(text.length / PAGE_CHARS));
    expect(first.text.length).toBe(PAGE_CHARS);
    const last = pageOf(text, 10_000);
    expect(last.index).toBe(first.count - 1);
    expect(last.to).toBe(text.length);
  });

  it('200,000 lines: pages end at line ends, and know their first line number', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(hasMoreLinesThan(text)).toBe(true);
    expect(hasMoreLinesThan('a\nb')).toBe(false);
    const p0 = pageOf(text, 0);
    let joined = '';
    for (let i = 0; i < p0.count; i++) {
      const p = pageOf(text, i);
      expect(p.text.length).toBeLessThanOrEqual(PAGE_CHARS);
      if (i > 0) expect(p.text.startsWith('line ')).toBe(true);
      expect(text.split('\n')[p.firstLine - 1]).toBe(p.text.split('\n')[0]);
      joined += p.text;
    }
    expect(joined).toBe(text);
  });
});
