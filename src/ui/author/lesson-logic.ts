/**
 * The pure side of lessons: where notes sit in a session's log, which question is open, which
 * of a scenario's prompts comes next. Positions are log seqs (1-based across runs).
 */
import type { TraceEvent } from '../../harness/index.ts';
import { textOf } from '../../harness/messages.ts';
import type { ScenarioQuestion, StepNote } from '../../scenarios/schema-v1.ts';

export type PlacedNote = { seq: number; markdown: string; index: number };

/** Each note at its log seq: `atSeq` as is, `atEventType` (+ `nth`) once that event is in the log. */
export function placeNotes(steps: readonly StepNote[], events: readonly TraceEvent[]): PlacedNote[] {
  const out: PlacedNote[] = [];
  steps.forEach((s, index) => {
    if (s.atSeq !== undefined) {
      out.push({ seq: s.atSeq, markdown: s.markdown, index });
      return;
    }
    let seen = 0;
    const want = s.nth ?? 1;
    const at = events.findIndex((e) => e.type === s.atEventType && ++seen === want);
    if (at >= 0) out.push({ seq: at + 1, markdown: s.markdown, index });
  });
  return out.sort((a, b) => a.seq - b.seq || a.index - b.index);
}

export type Answer = { chosen: number | null; revealed: boolean; skipped: boolean };

export const isSettled = (a: Answer | undefined) => !!a && (a.revealed || a.skipped);

/**
 * The question to show at `position`: the first unsettled one reached, else a settled one asked
 * right here. Questions after `upTo` (where the run stops being the lesson's replay) are not asked.
 */
export function questionAt(
  questions: readonly ScenarioQuestion[],
  answers: Readonly<Record<number, Answer>>,
  position: number,
  upTo: number | null = null,
): { question: ScenarioQuestion; index: number } | null {
  let here: { question: ScenarioQuestion; index: number } | null = null;
  let open: { question: ScenarioQuestion; index: number } | null = null;
  questions.forEach((question, index) => {
    if (question.atSeq > position || (upTo !== null && question.atSeq > upTo)) return;
    if (!isSettled(answers[index]) && (!open || question.atSeq < open.question.atSeq)) open = { question, index };
    if (question.atSeq === position && !here) here = { question, index };
  });
  return open ?? here;
}

/** Why the learner cannot pull past `logLength` yet (an unsettled question reached, up to `upTo`), or null. */
export function holdReason(
  questions: readonly ScenarioQuestion[],
  answers: Readonly<Record<number, Answer>>,
  logLength: number,
  upTo: number | null = null,
): string | null {
  const open = questions.findIndex((q, i) => q.atSeq <= logLength && (upTo === null || q.atSeq <= upTo) && !isSettled(answers[i]));
  return open < 0 ? null : 'Answer the question (or skip it) before stepping on.';
}

/**
 * Which of `prompts` comes next: the count of them already sent, in order, judged from the
 * user prompts in the log. Null when all were sent.
 */
export function nextPromptIndex(prompts: readonly string[], events: readonly TraceEvent[]): number | null {
  // Only the main agent's prompts: a subagent's prompt is also a user message, of its own history.
  const sent = events.flatMap((e) => (e.type === 'message.appended' && e.origin === 'user' && e.agentId === 'main' ? [textOf(e.message)] : []));
  let k = 0;
  for (const text of sent) if (k < prompts.length && text.includes(prompts[k]!.trim())) k++;
  return k < prompts.length ? k : null;
}

export type QuestionDraft = { question: string; choices: string; answer: number; explanation: string };

/** A question from the editor's fields (choices one per line), or what is wrong with them. */
export function questionFromDraft(d: QuestionDraft, atSeq: number): { ok: true; question: ScenarioQuestion } | { ok: false; error: string } {
  const choices = d.choices
    .split('\n')
    .map((c) => c.trim())
    .filter(Boolean);
  if (!d.question.trim()) return { ok: false, error: 'Write the question.' };
  if (choices.length < 2) return { ok: false, error: 'Give at least two choices, one per line.' };
  if (choices.length > 8) return { ok: false, error: 'At most eight choices.' };
  if (!Number.isInteger(d.answer) || d.answer < 0 || d.answer >= choices.length) return { ok: false, error: 'Pick which choice is right.' };
  if (atSeq < 1) return { ok: false, error: 'Step to an event first: a question is asked at an event.' };
  return { ok: true, question: { atSeq, question: d.question.trim(), choices, answer: d.answer, explanation: d.explanation.trim() } };
}

/**
 * Why a question placed at `q.atSeq` gives its answer away or asks the wrong thing, or null: the
 * answer is the next transition after the question. When the log already goes past it, that
 * transition must be the answer; when the transition the answer names is already on screen (the
 * last one at or before the question, with no model call since), the question comes after it.
 */
export function questionPlacementWarning(q: ScenarioQuestion, events: readonly TraceEvent[]): string | null {
  const answer = q.choices[q.answer];
  const nextIndex = events.findIndex((e, i) => i >= q.atSeq && e.type === 'transition');
  const next = events[nextIndex];
  if (next?.type === 'transition' && next.reason !== answer) {
    return `The next transition after event ${q.atSeq} is “${next.reason}” (event ${nextIndex + 1}), not “${answer}”: the question answers itself wrongly here.`;
  }
  for (let i = Math.min(q.atSeq, events.length) - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'model.request') break;
    if (e.type === 'transition') {
      return e.reason === answer
        ? `Event ${i + 1} (“${e.reason}”) already answers this question, and it is on screen at event ${q.atSeq}: place the question before it.`
        : null;
    }
  }
  return null;
}
