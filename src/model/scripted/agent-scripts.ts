/**
 * Scripted turns for subagents. A scenario's scripted model may carry `agents`: turns keyed by the
 * `description` the parent passes to its `agent` call (or, failing that, by the agent type). Each
 * started subagent gets its own scripted client over its turns, so parallel children replay
 * independently and deterministically, whatever order their calls interleave in.
 */
import type { ChildModelRequest } from '../../harness/agents/index.ts';
import type { ModelClient } from '../../harness/ports.ts';
import { createScriptedClient, type ScriptedClientOptions } from './client.ts';
import type { ScriptedTurn } from './script.ts';

export type AgentScripts = Record<string, readonly ScriptedTurn[]>;

/**
 * A `modelFor` for the subagent runtime over `scripts`. The turns are validated now (a bad script
 * fails at load time); a child with no script gets an error naming the keys that exist.
 */
export function scriptedAgentModels(scripts: AgentScripts, opts: ScriptedClientOptions = {}): (child: ChildModelRequest) => ModelClient | { error: string } {
  // Validate every script up front, as the main script is.
  for (const turns of Object.values(scripts)) createScriptedClient(turns, opts);
  return (child) => {
    const turns = scripts[child.description] ?? scripts[child.subagentType];
    if (!turns) {
      const keys = Object.keys(scripts);
      return {
        error:
          `the scripted model has no turns for this agent (description ${JSON.stringify(child.description)}, type ${JSON.stringify(child.subagentType)}). ` +
          `Scripts exist for: ${keys.length ? keys.map((k) => JSON.stringify(k)).join(', ') : '(none)'}; add one under model.agents keyed by the description or the type.`,
      };
    }
    // Tool ids unique across agents, as the API's are: views key tool calls by id.
    let n = 0;
    const toolIds = () => `toolu_${child.agentId}_${++n}`;
    return createScriptedClient(turns, { ...opts, name: `scripted:${child.agentId}`, toolIds });
  };
}
