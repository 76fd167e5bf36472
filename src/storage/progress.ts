/**
 * Course progress: per lesson, whether it was finished and how each question was answered.
 * The contract both stores keep (IndexedDB in the app, memory in tests); records are checked on
 * the way in and out, so a damaged record is reported and skipped, never shown as progress.
 */
import { z } from 'zod';

export const lessonProgressSchema = z
  .object({
    lessonId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    /** The lesson's last run ended (as the lesson says it should). */
    completed: z.boolean(),
    /** Question index → the choice made (null: revealed without choosing) and whether it was right. */
    answers: z.record(z.string().regex(/^\d+$/), z.object({ chosen: z.number().int().min(0).nullable(), right: z.boolean() }).strict()),
    /** ISO time of the last change. */
    updatedAt: z.string().min(1),
  })
  .strict();

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

/** A record read back from storage, or why it is not one. */
export function parseProgress(r: unknown): LessonProgress | string {
  const p = lessonProgressSchema.safeParse(r);
  return p.success ? p.data : p.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Progress with one more answer (or completion) folded in. */
export function withAnswer(p: LessonProgress | null, lessonId: string, index: number, chosen: number | null, right: boolean, now: string): LessonProgress {
  const base = p ?? { lessonId, completed: false, answers: {}, updatedAt: now };
  return { ...base, answers: { ...base.answers, [String(index)]: { chosen, right } }, updatedAt: now };
}

export function withCompleted(p: LessonProgress | null, lessonId: string, now: string): LessonProgress {
  return { ...(p ?? { lessonId, answers: {} }), lessonId, completed: true, updatedAt: now };
}
