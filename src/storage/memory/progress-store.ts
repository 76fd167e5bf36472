/** An in-memory `ProgressStore` for tests: same contract as the IndexedDB one (one suite tests both). */
import type { LessonProgress, ProgressStore } from '../progress.ts';
import { parseProgress } from '../progress-schema.ts';

export class InMemoryProgressStore implements ProgressStore {
  private readonly records = new Map<string, LessonProgress>();

  async list(): Promise<LessonProgress[]> {
    return [...this.records.values()].map((r) => structuredClone(r));
  }
  async get(lessonId: string): Promise<LessonProgress | null> {
    const r = this.records.get(lessonId);
    return r ? structuredClone(r) : null;
  }
  async put(p: LessonProgress): Promise<void> {
    const parsed = parseProgress(p);
    if (typeof parsed === 'string') throw new Error(`Not a progress record: ${parsed}`);
    this.records.set(parsed.lessonId, parsed);
  }
  async clear(): Promise<void> {
    this.records.clear();
  }
}
