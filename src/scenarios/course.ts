/**
 * The course over all the built-ins (the headless runner, tests): `course-lessons.ts` with the
 * library as the default list. The page imports `course-lessons.ts` and passes the built-ins it has
 * loaded, so its first screen does not carry the whole library.
 */
import { builtinDocs } from './library/index.ts';
import * as lessons from './course-lessons.ts';
import type { ScenarioV1 } from './schema-v1.ts';

export { CHAPTER_TITLES, nowTryVariant, type CourseLesson } from './course-lessons.ts';

/** Every lesson in course order: by chapter, then in library order within a chapter. */
export const courseLessons = (docs: readonly ScenarioV1[] = builtinDocs) => lessons.courseLessons(docs);
/** The chapters that have lessons, each with its lessons, in order. */
export const courseChapters = (docs: readonly ScenarioV1[] = builtinDocs) => lessons.courseChapters(docs);
/** The lesson after `id` in course order, or null at the end of the course (or for a non-lesson). */
export const nextLesson = (id: string, docs: readonly ScenarioV1[] = builtinDocs) => lessons.nextLesson(id, docs);
