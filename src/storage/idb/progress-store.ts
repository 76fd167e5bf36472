/**
 * The browser's `ProgressStore`: the `course_progress` object store of the app's database
 * (`db.ts`, keyPath `lessonId`). Opened on first use and reused; reopened after another tab's
 * upgrade closed it. A damaged record is skipped by `list` and reported through `onProblem`.
 */
import type { IDBPDatabase } from 'idb';
import type { LessonProgress, ProgressStore } from '../progress.ts';
import { COURSE_PROGRESS, reusableConnection, type OpenOptions } from './db.ts';

export type IdbProgressStoreOptions = Omit<OpenOptions, 'onClose'> & { onProblem?: (message: string) => void };

export class IdbProgressStore implements ProgressStore {
  private readonly db: () => Promise<IDBPDatabase>;

  constructor(private readonly opts: IdbProgressStoreOptions = {}) {
    this.db = reusableConnection(opts);
  }

  async list(): Promise<LessonProgress[]> {
    const parseProgress = await checker();
    const records = (await (await this.db()).getAll(COURSE_PROGRESS)) as unknown[];
    const out: LessonProgress[] = [];
    for (const r of records) {
      const parsed = parseProgress(r);
      if (typeof parsed === 'string') this.opts.onProblem?.(`A stored lesson progress record was skipped because it is damaged (${parsed}).`);
      else out.push(parsed);
    }
    return out;
  }

  async get(lessonId: string): Promise<LessonProgress | null> {
    const r: unknown = await (await this.db()).get(COURSE_PROGRESS, lessonId);
    if (r === undefined) return null;
    const parsed = (await checker())(r);
    return typeof parsed === 'string' ? null : parsed;
  }

  async put(p: LessonProgress): Promise<void> {
    const parsed = (await checker())(p);
    if (typeof parsed === 'string') throw new Error(`Not a progress record: ${parsed}`);
    await (await this.db()).put(COURSE_PROGRESS, parsed);
  }

  async clear(): Promise<void> {
    await (await this.db()).clear(COURSE_PROGRESS);
  }
}

/** The record check, with its schema (zod): loaded at the first read or write, not with the first screen. */
const checker = () => import('../progress-schema.ts').then((m) => m.parseProgress);
