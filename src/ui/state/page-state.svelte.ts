/**
 * The page's state, built in one place and in dependency order: what each part needs is given to
 * its constructor, and the run controller's hooks (`RunHooks`) are written once, here. Nothing
 * assigns a callback to a part after it is built.
 *
 *   settings, library ─┐
 *   SessionRecording ──┼─▶ RunController ─▶ UserScopeState, Stepper(recorder), Lesson(course), SessionManager
 *   Recorder, Course ──┘
 *
 * The recording and the recorder are built before the controller and handed to it (its `session`
 * and `wrapLive` hooks). The lesson and the session manager need the controller, so they come
 * after it; the controller's `hold`, `followUp`, `restored` and `replayCut` hooks are closures
 * over them, written in this constructor and first called once the page is built.
 *
 * `App.svelte` builds it, calls `watch()` while it initialises (the effects that keep the lesson
 * with the scenario) and `start()` on mount; a unit test builds it with in-memory stores.
 */
import { untrack } from 'svelte';
import { documents, documentsLoaded, loadDocuments } from './documents.ts';
import type { TrustStore } from '../../harness/ports.ts';
import type { SessionStore } from '../../harness/ports.ts';
import { nowTryVariant, type CourseLesson } from '../../scenarios/course-lessons.ts';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';
import type { ProgressStore } from '../../storage/progress.ts';
import type { Quarantine } from '../../storage/quarantine.ts';
import type { UserScopeStore } from '../../storage/user-scope.ts';
import { parseLessonHash, type LessonLink } from '../explain/lesson-link.ts';
import { mcpSession } from '../mcp/mcp-session.svelte.ts';
import { Recorder } from '../stepper/recorder.svelte.ts';
import { UserScopeState } from '../workbench/user-scope.svelte.ts';
import { builtins } from './builtins.svelte.ts';
import { Course } from './course.svelte.ts';
import { Lesson } from './lesson.svelte.ts';
import { ScenarioLibrary, builtinScenarioOf, type LibraryEntry } from './library.svelte.ts';
import { RunController } from './run-controller.svelte.ts';
import { SessionManager } from './session-manager.svelte.ts';
import { SessionRecording, type SessionStorage } from './session-recording.svelte.ts';
import { ModelSettings } from './settings.svelte.ts';
import { Stepper } from './stepper.svelte.ts';

export type PageDeps = {
  /** The built-in documents the page has now (the default scenario first). */
  docs: readonly ScenarioV1[];
  /** The link's hash: a share link (#s=…) opens its scenario. */
  hash: string;
  trustStore: TrustStore;
  sessionStore: SessionStore;
  progressStore: ProgressStore;
  userScopeStore: UserScopeStore;
  quarantine?: Quarantine;
  /** Where "the open session" survives a reload; default localStorage. */
  storage?: SessionStorage;
  settings?: ModelSettings;
};

export class PageState {
  readonly settings: ModelSettings;
  readonly library: ScenarioLibrary;
  /** The scenario a share link opened (untrusted until the person answers the dialog), if any. */
  readonly opened: LibraryEntry | null;
  readonly recording: SessionRecording;
  readonly recorder: Recorder;
  readonly course: Course;
  readonly ctl: RunController;
  readonly userScope: UserScopeState;
  readonly stepper: Stepper;
  readonly lesson: Lesson;
  readonly sessions: SessionManager;

  constructor(deps: PageDeps) {
    const settings = (this.settings = deps.settings ?? new ModelSettings());
    // The first screen has the default scenario only; the rest of the library loads right after it paints.
    const first = builtinScenarioOf(deps.docs[0]!);
    const library = (this.library = new ScenarioLibrary(deps.docs));
    const opened = (this.opened = library.fromHash(deps.hash) ?? null);
    const findScenario = (id: string) => library.find(id);
    const secrets = () => [settings.apiKey];
    // Every run is saved as it happens; a reload reopens the session that was open (a link wins).
    const recording = (this.recording = new SessionRecording(deps.sessionStore, { findScenario, secrets, ...(deps.storage !== undefined ? { storage: deps.storage } : {}) }));
    const recorder = (this.recorder = new Recorder(settings, () => this.ctl.events));
    // The course: progress in IndexedDB, answers and finished lessons recorded as they happen.
    const course = (this.course = new Course(deps.progressStore));
    const ctl = (this.ctl = new RunController({
      scenario: opened?.scenario ?? first,
      settings,
      trustStore: deps.trustStore,
      origin: opened?.origin ?? 'builtin',
      document: opened?.v1,
      hooks: {
        session: recording,
        wrapLive: recorder.wrap,
        hold: (logLength) => this.lesson.hold(logLength),
        followUp: () => this.lesson.nextPrompt,
        // The same replay is Step's and Run's first move, so the toolbar works on a cut run too (one click).
        replayCut: () => (this.canStepOn ? () => this.stepOn() : null),
        restored: (events) => this.restored(events),
      },
    }));
    // An imported ~/.claude/settings.json, saved in this browser: the user scope of every run until cleared.
    this.userScope = new UserScopeState(deps.userScopeStore, deps.trustStore, ctl);
    // The stepper (breakpoints, step back, edits, record / take over) and the lesson of the v1 scenario.
    this.stepper = new Stepper(ctl, settings, recorder);
    this.lesson = new Lesson(ctl, this.stepper, (opened ?? library.find(first.id))!.v1, (id, index, answer, right) => void course.answered(id, index, answer.chosen, right));
    this.sessions = new SessionManager(ctl, recording, { findScenario, secrets, ...(deps.quarantine ? { quarantine: deps.quarantine } : {}) });
  }

  /** The effects that keep the lesson, the user scope and MCP approvals with the scenario; call while a component initialises. */
  watch(): void {
    const { ctl, lesson, stepper, library, course } = this;
    // The user scope's trust is per document: another scenario asks (in the Workbench tab) on its own.
    $effect(() => void this.userScope.forDocument(ctl.documentTrustKey));
    // So are project MCP server approvals: approving `docs` in one document does not approve another's `docs`.
    $effect(() => void (mcpSession.document = ctl.documentTrustKey));
    $effect(() => {
      // Whatever loaded another scenario (the picker, a stored session), its lesson comes with it.
      const id = ctl.scenario.id;
      untrack(() => {
        const entry = lesson.doc.id === id ? null : library.find(id);
        if (entry) lesson.load(entry.v1);
      });
    });
    $effect(() => {
      // A reset or a new scenario: answers, recording and stops start over.
      if (ctl.events.length === 0) untrack(() => (lesson.restart(), stepper.clear()));
    });
    $effect(() => {
      const meta = lesson.doc.lesson;
      if (meta && lesson.finished && lesson.exitReason === meta.endsWith) untrack(() => void course.completed(lesson.doc.id));
    });
  }

  /**
   * On mount: the user scope is read first, so a run started once the session is back already has
   * it; the course progress too, so a restored lesson gets its answers back. Then the last session
   * is reopened, unless a link (#s=…) or a lesson link (#lesson=<id>&step=<n>) says otherwise.
   */
  async start(): Promise<void> {
    // A lesson link names a built-in: it is known once the library is in (`after`).
    let lessonLink: LessonLink | null = null;
    const after = Promise.all([this.userScope.load(), this.course.load(), this.loadLibrary()]).then(() => (lessonLink = parseLessonHash(location.hash)));
    await this.sessions.init({ resume: () => !this.opened && !lessonLink, after });
    if (lessonLink) await this.openLesson(lessonLink);
  }

  /** The whole library (a restored session or a lesson link may name any built-in): loaded after the first paint. */
  loadLibrary(): Promise<void> {
    return builtins.load().then(() => {
      if (builtins.loaded) this.library.setBuiltins(builtins.docs);
    });
  }

  /** A restored session brings its lesson and the answers given on the way (never asked twice). */
  private restored(events: { length: number }): void {
    const { ctl, lesson, library } = this;
    const entry = lesson.doc.id === ctl.scenario.id ? null : library.find(ctl.scenario.id);
    if (entry) lesson.load(entry.v1);
    lesson.resumeAt(events.length, this.course.progress[lesson.doc.id]?.answers);
  }

  /** Loads a scenario (the reset's promise), or queues it while the last session is restored. */
  load(entry: LibraryEntry): Promise<void> | undefined {
    // While the last session is restored, loading another would race it (SessionManager.init): it waits.
    if (this.ctl.restoring) return void this.sessions.afterRestore(`“${entry.scenario.title}”`, () => void this.load(entry));
    this.lesson.load(entry.v1);
    return this.ctl.reset(entry.scenario, { origin: entry.origin, document: entry.v1 });
  }

  /** The link's hash changed: a lesson link, or a share link. */
  async hashChanged(): Promise<void> {
    await this.loadLibrary();
    const link = parseLessonHash(location.hash);
    if (link) return void this.openLesson(link);
    // A share link's tier patterns are checked with RE2 (loaded on demand); a failed load is the library's loadError.
    if (location.hash.startsWith('#s=')) await loadDocuments().catch(() => {});
    const entry = this.library.fromHash(location.hash);
    if (entry) void this.load(entry);
  }

  /** Open a built-in lesson from a link, run up to its step (a question on the way still holds it). */
  async openLesson(link: LessonLink): Promise<void> {
    const entry = this.library.find(link.id);
    if (!entry) return;
    // A click during the restore (the guided start, the Course tab) would race it: it waits for it.
    if (this.ctl.restoring) return this.sessions.afterRestore(`“${entry.scenario.title}”`, () => void this.openLesson(link));
    this.lesson.load(entry.v1);
    await this.ctl.reset(entry.scenario, { origin: entry.origin });
    const step = link.step;
    // The link has done its work: clear it, so the same lesson link can be followed again.
    if (location.hash.startsWith('#lesson=')) history.replaceState(null, '', location.pathname + location.search);
    if (step) await this.ctl.run((_e, seq) => seq >= step);
  }

  /** "Run it with this change": the lesson with its one change, loaded as a scenario of its own and run. */
  nowTry(doc: CourseLesson): void {
    const v1 = nowTryVariant(doc);
    const go = () => void this.load({ scenario: documents().toRunnableScenario(v1, 0), origin: 'builtin', v1 })?.then(() => this.ctl.run());
    // Its scenario is validated (its schemas, tier patterns with RE2): at once when the document layer is there, as it is by any click.
    if (documentsLoaded()) go();
    else void loadDocuments().then(go, (e: unknown) => this.library.failed(`The lesson's change could not be loaded: ${e instanceof Error ? e.message : String(e)}`));
  }

  /**
   * A restored run that was cut off (a reload mid-run) cannot be stepped: its generator is gone.
   * A built-in scripted replay is deterministic, so it is played again to where it was (answers
   * kept) and paused there: one click and Step works again.
   */
  get canStepOn(): boolean {
    const opened = this.sessions.opened;
    return !!opened?.interrupted && !this.sessions.readOnly && !opened.workbench && !this.settings.live && this.library.find(this.ctl.scenario.id)?.origin === 'builtin';
  }
  async stepOn(): Promise<void> {
    const { ctl, lesson } = this;
    const entry = this.library.find(ctl.scenario.id);
    if (!entry) return;
    const count = ctl.events.length;
    const answers = lesson.answers;
    lesson.load(entry.v1);
    lesson.carryAnswers(answers);
    try {
      await ctl.reset(entry.scenario, { origin: entry.origin });
      await ctl.run((_e, seq) => seq >= count);
    } finally {
      lesson.carryAnswers(null);
    }
  }
}

/** Builds the page's state (see the top of this file). */
export function createPageState(deps: PageDeps): PageState {
  return new PageState(deps);
}
