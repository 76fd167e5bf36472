/**
 * Continuing a subagent (seed 002 §6: the child is continuable, not fire-and-forget). When a child
 * ends, what it needs to go on is kept under its agent id: its own history, its model client (a
 * scripted one goes on with its next turn) and its definition. An `agent` call with `resume: <id>`
 * appends the parent's follow-up to that history and runs the same agent again. Kept per run, in
 * memory: a later run starts with none (it would need the child's model and history rebuilt).
 */
import type { Message } from '../../messages.ts';
import type { ModelClient } from '../../ports.ts';
import type { ISOLATIONS, SubagentDefinition } from './definitions.ts';

export type FinishedChild = {
  agentId: string;
  def: SubagentDefinition;
  model: ModelClient;
  modelId: string;
  /** Its history when it last ended: the next follow-up is appended to it. */
  messages: Message[];
  isolation?: (typeof ISOLATIONS)[number];
  /** How many times it has run (1 after its first call). */
  runs: number;
  /** True while a follow-up runs: a second follow-up at the same time is refused. */
  running: boolean;
};

/** The children of one `agent` tool (one run, one depth), by agent id. */
export type ChildRegistry = Map<string, FinishedChild>;

/** Why `resume: id` cannot run now, or null when it can. */
export function resumeProblem(children: ChildRegistry, id: string): string | null {
  const child = children.get(id);
  if (child?.running) return `Agent ${id} is still working on an earlier request; wait for its result before sending it another.`;
  if (child) return null;
  const known = [...children.keys()];
  return `There is no agent ${JSON.stringify(id)} to continue. ${
    known.length > 0 ? `Agents that can be continued: ${known.join(', ')}.` : 'No agent has finished in this run yet.'
  } Use the agentId from an agent's result (its trailer), or leave resume out to start a new agent.`;
}
