/**
 * What the skills panel and the task board show, derived from the events shown (so stepping back
 * shows them as they were at that step). Pure functions, tested in `test/unit/ui-agents-derive.test.ts`.
 */
import { agents, type EventOf, type TraceEvent } from '../../harness/index.ts';

export type SkillRow = agents.SkillListing & {
  /** The latest load of this skill up to the cursor (tool call or re-attachment), if any. */
  loaded: EventOf<'skill.loaded'> | null;
  loads: number;
};

export type SkillsView = {
  rows: SkillRow[];
  problems: agents.SkillProblem[];
  /** Tokens the descriptions cost on every call. */
  listingTokens: number;
  /** Tokens the loaded bodies added (each load counted). */
  loadedTokens: number;
} | null;

export function deriveSkills(events: readonly TraceEvent[]): SkillsView {
  let available: EventOf<'skills.available'> | null = null;
  const loads = new Map<string, EventOf<'skill.loaded'>[]>();
  for (const e of events) {
    if (e.type === 'skills.available') {
      available = e;
      loads.clear();
    } else if (e.type === 'skill.loaded') loads.set(e.name, [...(loads.get(e.name) ?? []), e]);
  }
  if (!available) return null;
  const rows = available.skills.map((s) => {
    const l = loads.get(s.name) ?? [];
    return { ...s, loaded: l.at(-1) ?? null, loads: l.length };
  });
  const loadedTokens = [...loads.values()].flat().reduce((n, e) => n + e.bodyTokens, 0);
  return { rows, problems: available.problems, listingTokens: available.tokens, loadedTokens };
}

/**
 * The board after the latest board event shown, or null when no task event has happened. A
 * teammate's claim (`task.claimed`) and a gone teammate's tasks going back (`task.released`)
 * carry the board too, so the board shows them when they happen, not at the owner's next update.
 * `changed` is the task the event touched (none for a listing; the first one released).
 */
export function deriveBoard(events: readonly TraceEvent[]): { board: agents.Board; changed: string | null } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'task.created' || e.type === 'task.updated') return { board: agents.boardOf(e.tasks), changed: e.task.id };
    if (e.type === 'task.listed') return { board: agents.boardOf(e.tasks), changed: null };
    if (e.type === 'task.claimed') return { board: agents.boardOf(e.tasks), changed: e.taskId };
    if (e.type === 'task.released' && e.tasks) return { board: agents.boardOf(e.tasks), changed: e.taskIds[0] ?? null };
  }
  return null;
}
