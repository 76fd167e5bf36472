/**
 * Course progress: per lesson, whether it was finished and how each question was answered.
 * The contract both stores keep (IndexedDB in the app, memory in tests); records are checked on
 * the way in and out (`progress-schema.ts`, which the stores load when they first read or write), so a
 * damaged record is reported and skipped, never shown as progress.
 */
import type { z } from 'zod';
import type { lessonProgressSchema } from './progress-schema.ts';

export type LessonProgress = z.output<typeof lessonProgressSchema>;

export interface ProgressStore {
  /** Every lesson's progress; damaged records are left out. */
  list(): Promise<LessonProgress[]>;
  get(lessonId: string): Promise<LessonProgress | null>;
  /** Replaces the lesson's record. Rejects a record that does not fit the schema. */
  put(p: LessonProgress): Promise<void>;
  /** Forgets every lesson's progress (the course view's "start over"). */
  clear(): Promise<void>;
}

/** Progress with one more answer (or completion) folded in. */
export function withAnswer(p: LessonProgress | null, lessonId: string, index: number, chosen: number | null, right: boolean, now: string): LessonProgress {
  const base = p ?? { lessonId, completed: false, answers: {}, updatedAt: now };
  return { ...base, answers: { ...base.answers, [String(index)]: { chosen, right } }, updatedAt: now };
}

export function withCompleted(p: LessonProgress | null, lessonId: string, now: string): LessonProgress {
  return { ...(p ?? { lessonId, answers: {} }), lessonId, completed: true, updatedAt: now };
}
