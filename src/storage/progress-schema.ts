/**
 * A course progress record's schema (zod) and its check, apart from `progress.ts` so the page's
 * first screen (the course state) does not load zod: the stores import this when they read or write.
 */
import { z } from 'zod';
import type { LessonProgress } from './progress.ts';

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

/** A record read back from storage, or why it is not one. */
export function parseProgress(r: unknown): LessonProgress | string {
  const p = lessonProgressSchema.safeParse(r);
  return p.success ? p.data : p.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

