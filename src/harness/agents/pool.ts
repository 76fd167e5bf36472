/**
 * The tool pool of a run with agents: the base tools, `todo_write`, and `agent` over the
 * definitions found in the sandbox (`.claude/agents/`) plus the built-in general-purpose agent.
 * Children get the same base tools and `todo_write` (their own list), and `agent` only when
 * their definition allows it.
 */
import type { AnyTool } from '../tools/tool.ts';
import type { Clock, IdGen, Sandbox } from '../ports.ts';
import { teamTools } from './teams/tools.ts';
import type { Team, TeamRuntime } from './teams/team.ts';
import { todoWriteTool } from './todos/todo-tool.ts';
import { agentTool } from './subagents/agent-tool.ts';
import { loadDefinitions, type DefinitionProblem, type LoadedDefinitions } from './subagents/definitions.ts';
import type { SubagentRuntime } from './subagents/runtime.ts';

export type AgentPoolOptions = {
  sandbox: Sandbox;
  /** The definitions, when the caller read them already (with its other reads); default: read from `sandbox` here. */
  definitions?: LoadedDefinitions;
  /** Fresh instances of the base tools (e.g. `builtinTools`). */
  base: () => AnyTool[];
  runtime: Omit<SubagentRuntime, 'definitions' | 'problems' | 'tools' | 'depth'>;
  /** Present: the lead also gets the team tools (teammates get the same base tools). */
  team?: { clock: Clock; ids: IdGen; signal?: AbortSignal } & Pick<TeamRuntime, 'requestTimeoutMs' | 'lockStaleMs' | 'lockRetryMs' | 'maxTurns' | 'workspace' | 'releaseAfterMs' | 'hostsLead' | 'joinTimeoutMs' | 'heartbeatMs' | 'missedBeats'>;
};

export async function agentToolPool(opts: AgentPoolOptions): Promise<{ tools: AnyTool[]; problems: DefinitionProblem[]; team?: Team }> {
  const { definitions, problems } = opts.definitions ?? (await loadDefinitions(opts.sandbox.fs, opts.sandbox.workdir));
  const childPool = () => [...opts.base(), todoWriteTool()];
  const runtime: SubagentRuntime = { ...opts.runtime, definitions, problems, tools: childPool, depth: 0 };
  const tools = [...opts.base(), todoWriteTool(), agentTool(runtime)];
  if (!opts.team) return { tools, problems };
  const team = teamTools({ ...opts.runtime, ...opts.team, sandbox: opts.sandbox, tools: childPool });
  return { tools: [...tools, ...team.tools], problems, team: team.team };
}
