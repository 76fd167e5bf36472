/**
 * One event → its explanation, ready to render: the event type's entry, filled in from the
 * event's own data, plus the reason's entry for a transition or run end, and the stage's for a
 * permission stage. The explain view and the tests both go through `explainEvent`.
 */
import type { EventOf, TraceEvent, TraceEventType, TransitionReason } from '../../harness/index.ts';
import type { StageName } from '../../harness/permissions/index.ts';
import { EVENT_EXPLANATIONS, type EventExplanation } from './event-explanations.ts';
import type { GlossaryTerm } from './glossary.ts';
import { REASON_EXPLANATIONS, type ReasonExplanation } from './reason-explanations.ts';
import { STAGE_EXPLANATIONS, type StageExplanation } from './stage-explanations.ts';

export type Explained = {
  title: string;
  means: string;
  why: string;
  otherwise: string;
  lesson: string;
  terms: GlossaryTerm[];
  /** For transitions and run ends: the reason's own entry. */
  reason?: { name: TransitionReason } & ReasonExplanation;
  /** For permission stages and decisions: the stage's entry. */
  stage?: { name: StageName } & StageExplanation;
};

function entry<T extends TraceEventType>(e: EventOf<T>): EventExplanation<T> {
  return EVENT_EXPLANATIONS[e.type as T];
}

export function explainEvent(e: TraceEvent): Explained {
  const ex = entry(e);
  const out: Explained = { title: e.type, means: ex.means, why: ex.why(e), otherwise: ex.otherwise, lesson: ex.lesson, terms: [...ex.terms] };
  if (e.type === 'transition' || e.type === 'run.end') {
    const r = REASON_EXPLANATIONS[e.reason];
    out.reason = { name: e.reason, ...r };
    out.otherwise = r.otherwise;
    out.lesson = r.lesson;
    for (const t of r.terms) if (!out.terms.includes(t)) out.terms.push(t);
  }
  if (e.type === 'permission.stage' || e.type === 'permission.decision') out.stage = { name: e.stage, ...STAGE_EXPLANATIONS[e.stage] };
  if (e.type === 'permission.stage' && !(e.decision === 'allow' || e.decision === 'deny')) out.lesson = STAGE_EXPLANATIONS[e.stage].lesson;
  return out;
}

/**
 * A stage's explanation; for the mode stage of a run that read its settings, `means` also says
 * which mode was in force and the settings scope it came from.
 */
export function explainStage(stage: StageName, mode?: { name: string; from: string }): StageExplanation {
  const ex = STAGE_EXPLANATIONS[stage];
  return stage === 'mode' && mode ? { ...ex, means: `${ex.means} Here the mode is ${mode.name} — from ${mode.from}.` } : ex;
}
