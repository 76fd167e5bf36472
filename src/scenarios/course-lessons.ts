/**
 * The course over a given list of documents (the page passes the built-ins once they are loaded;
 * `course.ts` defaults to all of them): the built-in lessons grouped by chapter in teaching order, what comes next after
 * each, and the "now try" variant of a lesson (one thing changed, everything else the same).
 */
import type { ScenarioV1 } from './schema-v1.ts';
import { CHAPTERS, type Chapter } from './vocabulary.ts';

export type CourseLesson = ScenarioV1 & { lesson: NonNullable<ScenarioV1['lesson']> };

export const CHAPTER_TITLES: Record<Chapter, string> = {
  loop: 'The loop',
  tools: 'Tools',
  safety: 'Safety: permissions, hooks, trust',
  context: 'Context: compaction and the cache',
  'memory-sessions': 'Memory and sessions',
  agents: 'Agents',
  teams: 'Teams',
  extending: 'Extending',
};

const isLesson = (d: ScenarioV1): d is CourseLesson => d.lesson !== undefined;

/** Every lesson in course order: by chapter, then in library order within a chapter. */
export function courseLessons(docs: readonly ScenarioV1[]): CourseLesson[] {
  const lessons = docs.filter(isLesson);
  return CHAPTERS.flatMap((c) => lessons.filter((l) => l.lesson.chapter === c));
}

/** The chapters that have lessons, each with its lessons, in order. */
export function courseChapters(docs: readonly ScenarioV1[]): { chapter: Chapter; title: string; lessons: CourseLesson[] }[] {
  const all = courseLessons(docs);
  return CHAPTERS.map((chapter) => ({ chapter, title: CHAPTER_TITLES[chapter], lessons: all.filter((l) => l.lesson.chapter === chapter) })).filter(
    (c) => c.lessons.length > 0,
  );
}

/** The lesson after `id` in course order, or null at the end of the course (or for a non-lesson). */
export function nextLesson(id: string, docs: readonly ScenarioV1[]): CourseLesson | null {
  const all = courseLessons(docs);
  const i = all.findIndex((l) => l.id === id);
  return i < 0 ? null : (all[i + 1] ?? null);
}

const DIVERGED_NOTE =
  '**The replay has diverged here.** Your change made a tool return something the lesson’s recording never saw, but the scripted model cannot notice: its replies from here on were written for the original run. The event list marks them, and the tool card shows *recorded* beside *actual*.';

/**
 * The lesson with its "now try" change applied: the named settings keys replaced, or the script
 * replaced. The notes and questions are replaced by one note saying what changed (their positions
 * belong to the original run); the id and title say it is the variant.
 */
export function nowTryVariant(doc: CourseLesson): ScenarioV1 {
  const n = doc.lesson.nowTry;
  const settings = n.settings ? { ...doc.settings, ...n.settings } : doc.settings;
  const model = n.turns ? { kind: 'scripted' as const, turns: n.turns } : doc.model;
  const { lesson: _lesson, ...rest } = doc;
  void _lesson;
  return {
    ...rest,
    id: `${doc.id}-now-try`,
    title: `${doc.title} — now try`,
    description: n.text,
    settings,
    model,
    // One note, so the learner sees what changed beside the steps; and, where the change makes a
    // tool return what the lesson's recording did not see, one at the point the replay diverges.
    steps: [
      { atEventType: 'run.start', nth: 1, markdown: `**Now try** — ${n.text}` },
      { atEventType: 'replay.diverged', nth: 1, markdown: DIVERGED_NOTE },
    ],
    questions: [],
  };
}
