/** Course progress: one contract, kept by the IndexedDB store (under fake-indexeddb) and its in-memory twin. */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { COURSE_PROGRESS, DB_VERSION } from '../../src/storage/idb/db.ts';
import { IdbProgressStore } from '../../src/storage/idb/progress-store.ts';
import { InMemoryProgressStore } from '../../src/storage/memory/progress-store.ts';
import { withAnswer, withCompleted, type ProgressStore } from '../../src/storage/progress.ts';

let n = 0;
const implementations: [string, () => ProgressStore][] = [
  ['memory', () => new InMemoryProgressStore()],
  ['indexeddb', () => new IdbProgressStore({ name: `progress-${++n}` })],
];

describe.each(implementations)('ProgressStore contract: %s', (_name, make) => {
  it('keeps answers and completion per lesson, and forgets on clear', async () => {
    const s = make();
    expect(await s.list()).toEqual([]);
    const a = withAnswer(null, 'fix-a-bug', 0, 1, false, '2026-01-01T00:00:00Z');
    await s.put(a);
    await s.put(withCompleted(withAnswer(a, 'fix-a-bug', 1, 0, true, '2026-01-01T00:01:00Z'), 'fix-a-bug', '2026-01-01T00:02:00Z'));
    const got = await s.get('fix-a-bug');
    expect(got).toEqual({
      lessonId: 'fix-a-bug',
      completed: true,
      answers: { '0': { chosen: 1, right: false }, '1': { chosen: 0, right: true } },
      updatedAt: '2026-01-01T00:02:00Z',
    });
    expect(await s.get('other')).toBeNull();
    await s.clear();
    expect(await s.list()).toEqual([]);
  });

  it('refuses a record that is not progress', async () => {
    const s = make();
    await expect(s.put({ lessonId: 'Bad Id', completed: true, answers: {}, updatedAt: 'x' })).rejects.toThrow(/lessonId/);
  });
});

describe('IndexedDB progress specifics', () => {
  it('lives in the app database at the current version and skips a damaged record', async () => {
    const problems: string[] = [];
    const s = new IdbProgressStore({ name: 'progress-damaged', onProblem: (m) => problems.push(m) });
    await s.put(withCompleted(null, 'refusal', '2026-01-01T00:00:00Z'));
    const raw = await openDB('progress-damaged');
    expect(raw.version).toBe(DB_VERSION);
    await raw.put(COURSE_PROGRESS, { lessonId: 'broken', completed: 'yes' });
    raw.close();
    expect((await s.list()).map((p) => p.lessonId)).toEqual(['refusal']);
    expect(problems[0]).toMatch(/damaged/);
  });
});
