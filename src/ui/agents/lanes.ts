/**
 * Which agent each event of the one stream belongs to, how deep that agent is, and which rows a
 * folded lane hides. The stream interleaves agents as their events happen; the views nest them.
 */
import type { TraceEvent } from '../../harness/index.ts';

export type AgentInfo = { agentId: string; depth: number; label: string; parent: string | null; startSeqIndex: number };

/** Every agent seen in `events`: `main` at depth 0, each subagent one deeper than its parent. */
export function agentTree(events: readonly TraceEvent[]): Map<string, AgentInfo> {
  const tree = new Map<string, AgentInfo>([['main', { agentId: 'main', depth: 0, label: 'main', parent: null, startSeqIndex: -1 }]]);
  events.forEach((e, i) => {
    // A teammate is a lane of its own, one level under the lead (it outlives any one call).
    if (e.type === 'teammate.spawned') {
      tree.set(e.teammateAgentId, { agentId: e.teammateAgentId, depth: 1, label: `teammate ${e.name}`, parent: e.agentId, startSeqIndex: i });
      return;
    }
    if (e.type !== 'subagent.start') return;
    // A continued agent (`resume`) is the same lane as its first run.
    if (e.resumed && tree.has(e.childAgentId)) return;
    const parent = tree.get(e.agentId);
    tree.set(e.childAgentId, {
      agentId: e.childAgentId,
      depth: (parent?.depth ?? 0) + 1,
      label: `${e.subagentType}: ${e.description}`,
      parent: e.agentId,
      startSeqIndex: i,
    });
  });
  return tree;
}

/** Whether an event of `agentId` is hidden because its lane, or a lane around it, is folded. */
export function isFolded(agentId: string, folded: ReadonlySet<string>, tree: ReadonlyMap<string, AgentInfo>): boolean {
  for (let id: string | null = agentId; id && id !== 'main'; id = tree.get(id)?.parent ?? null) if (folded.has(id)) return true;
  return false;
}
