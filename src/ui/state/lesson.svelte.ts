/**
 * The loaded scenario as v1, and its lesson: notes on steps, "predict the next transition"
 * questions, breakpoints (held by the stepper while it runs), the prompts that follow the first.
 * In author mode the educator edits them at the current step and copies a lesson link; a learner
 * opening that link sees the notes beside the steps and each question before its answer, and
 * cannot step past a question without answering or skipping it.
 */
import { withToolsOf } from '../tools/tools-in-doc.ts';
import { documents } from './documents.ts';
import type { ScenarioQuestion, ScenarioV1 } from '../../scenarios/schema-v1.ts';
import { holdReason, nextPromptIndex, placeNotes, questionAt, questionFromDraft, questionPlacementWarning, type Answer, type QuestionDraft } from '../author/lesson-logic.ts';
import { FITS, lessonFit, type LessonFit } from '../author/lesson-fit.ts';
import type { LessonProgress } from '../../storage/progress.ts';
import type { RunController } from './run-controller.svelte.ts';
import type { Stepper } from './stepper.svelte.ts';

const HOLD_KEY = 'hp.holdQuestions';
function readHold(): boolean {
  try {
    return globalThis.localStorage?.getItem(HOLD_KEY) !== '0';
  } catch {
    return true;
  }
}

export class Lesson {
  doc = $state.raw<ScenarioV1>() as ScenarioV1;
  author = $state(false);
  /** The learner's answers, by question index. */
  answers = $state.raw<Record<number, Answer>>({});
  error = $state<string | null>(null);
  /**
   * Whether Run and Step stop at a question until it is answered (the learner's choice, kept in
   * localStorage; on unless turned off in the Course tab). Questions are shown either way.
   */
  holdAtQuestions = $state(readHold());
  setHoldAtQuestions(on: boolean): void {
    this.holdAtQuestions = on;
    try {
      globalThis.localStorage?.setItem(HOLD_KEY, on ? '1' : '0');
    } catch {
      // Storage disabled: the choice lasts for this page.
    }
  }
  /**
   * `onAnswer` is told about every answer settled (the course keeps them in IndexedDB). The
   * controller asks `hold` before each pull (its `hold` hook, written in `page-state.svelte.ts`).
   */
  constructor(
    private readonly ctl: RunController,
    private readonly stepper: Stepper,
    doc: ScenarioV1,
    private readonly onAnswer: (lessonId: string, index: number, answer: Answer, right: boolean) => void = () => {},
  ) {
    this.load(doc);
  }

  /** Why Run and Step must wait at log length `logLength` (an open question), or null. */
  hold(logLength: number): string | null {
    return this.author || !this.holdAtQuestions ? null : holdReason(this.doc.questions, this.answers, logLength, this.fit.upTo);
  }

  /** A scenario was loaded (or the run reset): its breakpoints become the stepper's. */
  load(doc: ScenarioV1): void {
    this.doc = doc;
    this.answers = {};
    this.error = null;
    this.stepper.breakpoints = structuredClone(doc.breakpoints);
  }

  /** Answers a reset keeps once (replaying a restored session to where it was); see `carryAnswers`. */
  private carried: Record<number, Answer> | null = null;

  /** A new run of the same scenario: answers start over (unless carried over once). */
  restart(): void {
    this.answers = this.carried ?? {};
  }

  /** The next reset (or resets, until `null`) keeps `answers`: the same replay is played again to where it was. */
  carryAnswers(answers: Record<number, Answer> | null): void {
    this.carried = answers;
    if (answers) this.answers = answers;
  }

  /**
   * A stored session reopened at `logLength` events: answers are part of what is restored. A
   * question the log got past was settled then (Run and Step hold at an open one), so it is not
   * asked again; `saved` (the course progress) says what was chosen.
   */
  resumeAt(logLength: number, saved: LessonProgress['answers'] = {}): void {
    const answers: Record<number, Answer> = {};
    this.doc.questions.forEach((q, i) => {
      if (q.atSeq > logLength) return;
      const s = saved[String(i)];
      if (s) answers[i] = { chosen: s.chosen, revealed: true, skipped: false };
      else if (q.atSeq < logLength) answers[i] = { chosen: null, revealed: false, skipped: true };
    });
    this.answers = answers;
  }

  get position(): number {
    return this.ctl.shown.length;
  }
  /** Whether the run is still the replay the lesson was written for, and up to which event. */
  get fit(): LessonFit {
    // In author mode the notes are being written for the run on screen, whatever it is.
    return this.author ? FITS : lessonFit(this.doc, this.ctl.events);
  }
  /**
   * Notes placed on the log, and those reached at the current step: only while the run is the
   * lesson's replay (a note anchored to an event type still says what the replay did there).
   */
  get notes() {
    const upTo = this.fit.upTo;
    return placeNotes(this.doc.steps, this.ctl.events).filter((n) => upTo === null || n.seq <= upTo);
  }
  get notesReached() {
    return this.notes.filter((n) => n.seq <= this.position);
  }
  get question() {
    return questionAt(this.doc.questions, this.answers, this.position, this.fit.upTo);
  }
  get hasLesson(): boolean {
    return this.doc.steps.length > 0 || this.doc.questions.length > 0;
  }
  /**
   * Every prompt of the lesson was sent and the last run is over (showing the whole log). A run
   * cut off (a reload mid-run restores it as aborted, with no `run.end`) has not finished.
   */
  get finished(): boolean {
    const lastEnd = this.ctl.events.findLastIndex((e) => e.type === 'run.end' && e.agentId === 'main');
    const lastStart = this.ctl.events.findLastIndex((e) => e.type === 'run.start' && e.agentId === 'main');
    return this.ctl.ended && this.ctl.cursor === null && lastEnd > lastStart && nextPromptIndex(this.doc.prompts, this.ctl.events) === null;
  }
  /** How the last run ended, once it has. */
  get exitReason(): string | null {
    const end = this.ctl.events.findLast((e) => e.type === 'run.end');
    return end?.type === 'run.end' ? end.reason : null;
  }
  /** The scenario's next prompt, offered as the follow-up once a run has ended. */
  get nextPrompt(): string | null {
    if (this.doc.prompts.length < 2) return null;
    const i = nextPromptIndex(this.doc.prompts, this.ctl.events);
    return i === null || i === 0 ? null : (this.doc.prompts[i] ?? null);
  }

  answer(index: number, choice: number | null, how: 'choose' | 'reveal' | 'skip'): void {
    const prev = this.answers[index] ?? { chosen: null, revealed: false, skipped: false };
    const next: Answer = how === 'skip' ? { ...prev, skipped: true } : { ...prev, chosen: choice ?? prev.chosen, revealed: true };
    this.answers = { ...this.answers, [index]: next };
    const q = this.doc.questions[index];
    if (q && how !== 'skip') this.onAnswer(this.doc.id, index, next, next.chosen === q.answer);
  }

  addNote(markdown: string): boolean {
    const text = markdown.trim();
    if (!text) return this.fail('Write the note first.');
    if (this.position < 1) return this.fail('Step to an event first: a note belongs to a step.');
    this.doc = { ...this.doc, steps: [...this.doc.steps, { atSeq: this.position, markdown: text }] };
    this.error = null;
    return true;
  }

  removeNote(index: number): void {
    this.doc = { ...this.doc, steps: this.doc.steps.filter((_, i) => i !== index) };
  }

  addQuestion(draft: QuestionDraft): boolean {
    const r = questionFromDraft(draft, this.position);
    if (!r.ok) return this.fail(r.error);
    this.doc = { ...this.doc, questions: [...this.doc.questions, r.question] };
    // Added, with a warning when its place gives the answer away (the author may step back and move it).
    this.error = questionPlacementWarning(r.question, this.ctl.events);
    return true;
  }

  /**
   * Why a question (authored, or the draft at the current event) sits where it gives its answer
   * away, against the run on screen; null when it is well placed. Shown beside it while authoring,
   * so a warning does not vanish with the next action.
   */
  placementWarning(q: ScenarioQuestion): string | null {
    return questionPlacementWarning(q, this.ctl.events);
  }
  draftWarning(draft: QuestionDraft): string | null {
    const r = questionFromDraft(draft, this.position);
    return r.ok ? this.placementWarning(r.question) : null;
  }

  removeQuestion(index: number): void {
    this.doc = { ...this.doc, questions: this.doc.questions.filter((_, i) => i !== index) };
    const { [index]: _dropped, ...rest } = this.answers;
    this.answers = rest;
  }

  /** The scenario with the lesson as authored (breakpoints as set in the stepper now). */
  lessonDoc(): ScenarioV1 {
    // Custom tools and golden cases edited in the Tools tab travel with the lesson (see ui/tools/).
    return { ...this.doc, settings: this.ctl.scenario.id === this.doc.id ? withToolsOf(this.doc.settings, this.ctl.scenario.settings) : this.doc.settings, breakpoints: structuredClone(this.stepper.breakpoints) };
  }

  /** The link that opens the lesson (no API key: only scenario fields travel). After `loadDocuments()` (the lesson panel has). */
  lessonLink(base: string): string {
    return documents().scenarioLinkUrl(base, this.lessonDoc());
  }

  private fail(message: string): false {
    this.error = message;
    return false;
  }
}
