/**
 * Which model a typed follow-up runs on in scripted mode. The script is one conversation: a
 * follow-up continues it where the last run left off — with the same client, or (after a reload,
 * when that client is gone) with the turns not yet played — and when no turn is left it says so
 * plainly instead of replaying the script from turn 1.
 */
import type { ModelClient } from '../../harness/ports.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import type { Scenario } from '../../scenarios/schema.ts';

type ScriptedTurn = Extract<Scenario['model'], { kind: 'scripted' }>['turns'][number];

export type FollowUpModel =
  /** Keep using the last run's client: it knows where the script is. */
  | { kind: 'continue'; model: ModelClient }
  /** No client to continue (a restored session): play the turns after the ones already used. */
  | { kind: 'resume'; turns: ScriptedTurn[]; toolIdStart: number }
  /** The script is used up: refuse with this message. */
  | { kind: 'ended'; message: string };

export const SCRIPT_ENDED =
  'The scripted model has no turns left: its script ended with the last run, so it cannot answer a new prompt. Press Reset to replay the scenario from the start, or switch to a live model in Settings to keep talking.';

type Counted = ModelClient & { remaining?: () => number };

/**
 * Script turns already played in this session's log: one per model call (faults too), except a
 * last reply whose tool calls never got a result (a fork or reload cut it off) — that turn is
 * played again, so the follow-up redoes what was cut rather than skipping it.
 */
export function scriptedCallsMade(events: readonly TraceEvent[]): number {
  const calls = events.filter((e) => e.type === 'model.request').length;
  const lastResponse = events.findLastIndex((e) => e.type === 'model.response');
  if (lastResponse < 0) return calls;
  const proposed = events.slice(lastResponse).flatMap((e) => (e.type === 'tool.proposed' ? [e.toolUseId] : []));
  const answered = new Set(events.slice(lastResponse).flatMap((e) => (e.type === 'tool.result' ? [e.toolUseId] : [])));
  return proposed.some((id) => !answered.has(id)) ? calls - 1 : calls;
}

/** The highest `toolu_scripted_<n>` in the log, so a resumed script numbers its calls after it. */
export function scriptedIdsUsed(events: readonly TraceEvent[]): number {
  let max = 0;
  for (const e of events) {
    const m = e.type === 'tool.proposed' ? /^toolu_scripted_(\d+)$/.exec(e.toolUseId) : null;
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

export function scriptedFollowUp(last: ModelClient | null, turns: readonly ScriptedTurn[], events: readonly TraceEvent[]): FollowUpModel {
  const counted = last as Counted | null;
  if (counted?.remaining) return counted.remaining() > 0 ? { kind: 'continue', model: counted } : { kind: 'ended', message: SCRIPT_ENDED };
  const rest = turns.slice(scriptedCallsMade(events));
  return rest.length > 0 ? { kind: 'resume', turns: rest, toolIdStart: scriptedIdsUsed(events) } : { kind: 'ended', message: SCRIPT_ENDED };
}
