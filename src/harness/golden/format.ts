/** A readable plain-text table of golden outcomes (the headless runner prints it). */
import { lineDiff } from './compare.ts';
import type { GoldenOutcome } from './run.ts';

const cut = (s: string, n = 60) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

export function formatGoldenTable(outcomes: readonly GoldenOutcome[]): string {
  const rows = outcomes.map((o) => [o.pass ? 'PASS' : 'FAIL', o.id, o.expected.decision, o.actual?.decision ?? '—', cut(o.label, 40)]);
  const head = ['result', 'case', 'expected', 'actual', 'label'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  for (const o of outcomes.filter((x) => !x.pass)) {
    out.push('', `✗ ${o.id}: ${o.label}`);
    if (o.error) out.push(`  ${o.error}`);
    for (const d of o.diffs) {
      if (d.field !== 'content') {
        out.push(`  ${d.field}: expected ${d.expected}, got ${d.actual}`);
        continue;
      }
      out.push('  content:');
      for (const l of lineDiff(d.expected, d.actual)) if (l.kind !== 'same') out.push(`    ${l.kind === 'removed' ? '-' : '+'} ${l.text}`);
    }
  }
  const failed = outcomes.filter((o) => !o.pass).length;
  out.push('', `${outcomes.length - failed} passed, ${failed} failed`);
  return `${out.join('\n')}\n`;
}
