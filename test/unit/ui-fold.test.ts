/** Folding idle layer rows (issue #11 §4): runs of idle compaction layers fold into one row; a fired layer never hides. */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { foldIdleLayers } from '../../src/ui/events/fold.ts';

async function logOf(id: string): Promise<TraceEvent[]> {
  const sandbox = await createJustBashSandbox();
  try {
    const { log } = await runLessonHeadless(builtinDocs.find((d) => d.id === id)!, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    return [...log];
  } finally {
    await sandbox.dispose();
  }
}

const idle = (e: TraceEvent) => e.type === 'compaction.layer' && !e.fired;

describe('foldIdleLayers', () => {
  it('folds each run of idle layers before a model call into its first row, on a real lesson', async () => {
    const log = await logOf('fix-a-bug');
    const rows = foldIdleLayers(log.map((e, i) => ({ e, i })));
    const starts = rows.filter((r) => r.foldStart);
    // One fold per model request, each over the idle layers right before it.
    expect(starts.length).toBe(log.filter((e) => e.type === 'model.request').length);
    for (const s of starts) {
      const under = rows.filter((r) => r.foldedUnder === s.i);
      expect(under.length).toBe(s.foldStart!.count);
      expect(s.foldStart!.count).toBeGreaterThanOrEqual(2);
      expect(under.every((r) => idle(r.e))).toBe(true);
      // The indexes of a fold are consecutive, starting at its first row.
      expect(under.map((r) => r.i)).toEqual(under.map((_, k) => s.i + k));
    }
    // Every idle layer of the log is under a fold here; nothing else is.
    expect(rows.filter((r) => r.foldedUnder !== undefined).length).toBe(log.filter(idle).length);
  });

  it('never folds a fired layer, and leaves a lone idle layer as it is', async () => {
    const log = await logOf('auto-compact');
    const fired = log.findIndex((e) => e.type === 'compaction.layer' && e.fired);
    expect(fired).toBeGreaterThanOrEqual(0);
    const rows = foldIdleLayers(log.map((e, i) => ({ e, i })));
    expect(rows[fired]!.foldedUnder).toBeUndefined();
    expect(rows.filter((r) => r.foldedUnder !== undefined).every((r) => idle(r.e))).toBe(true);

    const layer = log.find(idle)!;
    const other = log.find((e) => e.type === 'model.request')!;
    const lone = foldIdleLayers([other, layer, other].map((e, i) => ({ e, i })));
    expect(lone.map((r) => [r.foldStart, r.foldedUnder])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });
});
