/**
 * The learner's place in the course: progress per lesson (kept in IndexedDB through a
 * `ProgressStore`), whether the guided start was seen (localStorage), and the bookkeeping that
 * records an answer or a finished lesson as it happens.
 */
import { courseLessons, type CourseLesson } from '../../scenarios/course-lessons.ts';
import { builtins } from './builtins.svelte.ts';
import { withAnswer, withCompleted, type LessonProgress, type ProgressStore } from '../../storage/progress.ts';

const WELCOMED_KEY = 'hp.welcomed';
// A timestamp, not reactive state.
const isoNow = () => new Date(Date.now()).toISOString();

export class Course {
  /** The lessons of the built-ins loaded so far (all of them once `builtins.load()` is done). */
  readonly lessons: CourseLesson[] = $derived(courseLessons(builtins.docs));
  progress = $state.raw<Record<string, LessonProgress>>({});
  /** The guided start is showing. */
  guide = $state(false);
  /** A store that failed: said once, progress then lasts for this page only. */
  problem = $state<string | null>(null);
  loaded = $state(false);

  constructor(
    private readonly store: ProgressStore,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null,
    private readonly now: () => string = isoNow,
  ) {
    this.guide = !this.read(WELCOMED_KEY);
  }

  async load(): Promise<void> {
    try {
      const all = await this.store.list();
      this.progress = Object.fromEntries(all.map((p) => [p.lessonId, p]));
    } catch (e) {
      this.problem = `Course progress could not be read (${e instanceof Error ? e.message : String(e)}); it will last for this page only.`;
    } finally {
      this.loaded = true;
    }
  }

  isLesson(id: string): boolean {
    return this.lessons.some((l) => l.id === id);
  }

  async answered(lessonId: string, index: number, chosen: number | null, right: boolean): Promise<void> {
    if (!this.isLesson(lessonId)) return;
    await this.save(withAnswer(this.progress[lessonId] ?? null, lessonId, index, chosen, right, this.now()));
  }

  async completed(lessonId: string): Promise<void> {
    if (!this.isLesson(lessonId) || this.progress[lessonId]?.completed) return;
    await this.save(withCompleted(this.progress[lessonId] ?? null, lessonId, this.now()));
  }

  async startOver(): Promise<void> {
    this.progress = {};
    try {
      await this.store.clear();
    } catch (e) {
      this.problem = `Course progress could not be cleared: ${e instanceof Error ? e.message : String(e)}.`;
    }
  }

  /** Lessons finished, of all. */
  get done(): number {
    return this.lessons.filter((l) => this.progress[l.id]?.completed).length;
  }

  closeGuide(): void {
    this.guide = false;
    this.write(WELCOMED_KEY, '1');
  }

  private async save(p: LessonProgress): Promise<void> {
    this.progress = { ...this.progress, [p.lessonId]: p };
    try {
      await this.store.put(p);
    } catch (e) {
      this.problem = `Course progress could not be saved (${e instanceof Error ? e.message : String(e)}); it will last for this page only.`;
    }
  }

  private read(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }
  private write(key: string, value: string): void {
    try {
      this.storage?.setItem(key, value);
    } catch {
      // Storage disabled: the guided start shows again next visit, nothing worse.
    }
  }
}
