import type { TraceEvent } from '../../harness/index.ts';
import { agentTree, type AgentInfo } from '../agents/lanes.ts';

export type AgentLane = AgentInfo & { events: number; last: string };

/** One lane per agent of the run (main first, then subagents and teammates as they started): its event count and last event type. */
export function agentLanes(events: readonly TraceEvent[]): AgentLane[] {
  const count = new Map<string, number>();
  const last = new Map<string, string>();
  for (const e of events) {
    count.set(e.agentId, (count.get(e.agentId) ?? 0) + 1);
    last.set(e.agentId, e.type);
  }
  return [...agentTree(events).values()].map((a) => ({ ...a, events: count.get(a.agentId) ?? 0, last: last.get(a.agentId) ?? '—' }));
}
