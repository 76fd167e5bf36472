/**
 * Folding idle layer events: before every model call the five compaction layers report, and
 * most of the time none of them fires. A run of two or more consecutive idle `compaction.layer`
 * rows folds into one row that says so and expands on click.
 */
import type { TraceEvent } from '../../harness/index.ts';

export type FoldRow = { e: TraceEvent; i: number; foldStart?: { count: number }; foldedUnder?: number };

const idle = (e: TraceEvent) => e.type === 'compaction.layer' && !e.fired;

/** Marks each run of idle layers: its first row carries the count, every row of it the first's index. */
export function foldIdleLayers(rows: readonly { e: TraceEvent; i: number }[]): FoldRow[] {
  const out: FoldRow[] = rows.map((r) => ({ ...r }));
  for (let k = 0; k < out.length; ) {
    if (!idle(out[k]!.e)) {
      k++;
      continue;
    }
    let end = k;
    while (end + 1 < out.length && idle(out[end + 1]!.e)) end++;
    if (end > k) {
      out[k]!.foldStart = { count: end - k + 1 };
      for (let j = k; j <= end; j++) out[j]!.foldedUnder = out[k]!.i;
    }
    k = end + 1;
  }
  return out;
}
