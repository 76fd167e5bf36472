/**
 * `agent`: starts a subagent — a new `agentLoop` with only the prompt as its history, its own system
 * prompt, tool pool, permission context and turn limit, on the same sandbox. Its events flow through
 * the parent's stream as they happen (stamped with its own agent id and the parent's call id); the
 * parent's model gets only the final text and a short usage trailer. Concurrency-safe: several calls
 * of one turn run together, results in call order.
 */
import { z } from 'zod';
import { buildTool, type AnyTool, type Tool } from '../../tools/tool.ts';
import { ISOLATIONS, type SubagentDefinition } from './definitions.ts';
import { resumeProblem, type ChildRegistry } from './continuation.ts';
import { runChild } from './run-child.ts';
import { MAX_AGENT_DEPTH, type SubagentRuntime } from './runtime.ts';

export const AGENT_TOOL_NAME = 'agent';

export const agentInputSchema = z
  .object({
    description: z.string().min(1).max(200).describe('A short (3–5 word) description of the task'),
    prompt: z.string().min(1).describe('The task for the agent: everything it needs, since it sees nothing of this conversation'),
    subagent_type: z.string().min(1).optional().describe('Which agent to use (default: general-purpose)'),
    isolation: z
      .enum(ISOLATIONS)
      .optional()
      .describe('"worktree" (or "overlay"): the agent works in its own copy of the files; its changes are merged back when it finishes, and overlapping changes are refused as conflicts'),
    resume: z
      .string()
      .min(1)
      .optional()
      .describe('The agentId of an agent that finished earlier in this run (from its result). It continues with its own history; prompt is your follow-up. Claude Code\'s Task tool calls this `resume`.'),
  })
  .strict();

export type AgentInput = z.infer<typeof agentInputSchema>;

function describe(runtime: SubagentRuntime): string {
  const list = runtime.definitions.map((d) => `- ${d.name}: ${d.description}${d.tools ? ` (tools: ${d.tools.join(', ')})` : ''}`).join('\n');
  const broken = runtime.problems.length
    ? `\n\nDefinitions that did not load (fix the file to use them):\n${runtime.problems.map((p) => `- ${p.path}:${p.line}: ${p.message}`).join('\n')}`
    : '';
  return `Launch a subagent to handle a complex, multi-step task on its own. It starts fresh: it sees only your prompt, not this conversation, so say everything it needs. It works in the same files. When it is done you get its final message (only that) and a usage line.

Available agent types (subagent_type):
${list}

- Launch several agents at once (several calls in one reply) when the tasks are independent: they run in parallel.
- Its result is not shown to the user: tell them what matters.
- Say whether it should write code or only research.
- To follow up with an agent that finished, call agent again with resume set to its agentId (from its result): it goes on with everything it already saw, so the follow-up can be short.${broken}`;
}

export function findDefinition(runtime: SubagentRuntime, type: string | undefined): SubagentDefinition | undefined {
  return runtime.definitions.find((d) => d.name === (type ?? 'general-purpose'));
}

/** The tools a child gets: its definition's list (or the parent's pool), and `agent` only when allowed. */
export function childTools(def: SubagentDefinition, runtime: SubagentRuntime): AnyTool[] {
  const pool = runtime.tools();
  const picked = def.tools ? pool.filter((t) => def.tools!.includes(t.name)) : pool;
  const mayDelegate = def.tools?.includes(AGENT_TOOL_NAME) === true && runtime.depth + 1 < MAX_AGENT_DEPTH;
  return mayDelegate ? [...picked, agentTool({ ...runtime, depth: runtime.depth + 1 })] : picked;
}

export function agentTool(runtime: SubagentRuntime): Tool<AgentInput> {
  // The children this tool has run, so a later call can continue one by its id (continuation.ts).
  const children: ChildRegistry = new Map();
  return buildTool({
    name: AGENT_TOOL_NAME,
    description: describe(runtime),
    inputSchema: agentInputSchema,
    // Starting an agent changes nothing by itself; each of the child's calls is judged on its own.
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    maxResultChars: 40_000,
    validateInput: async (input) => {
      if (input.resume !== undefined) {
        const problem = resumeProblem(children, input.resume);
        return problem ? { ok: false, message: problem } : { ok: true };
      }
      if (findDefinition(runtime, input.subagent_type)) return { ok: true };
      const names = runtime.definitions.map((d) => d.name).join(', ');
      return {
        ok: false,
        message: `There is no agent type ${JSON.stringify(input.subagent_type)}. The agent types that exist are: ${names}. Use one of them, or define it in .claude/agents/<name>.md.`,
      };
    },
    call: (input, ctx) => {
      const resumed = input.resume !== undefined ? children.get(input.resume) : undefined;
      if (input.resume !== undefined && (!resumed || resumed.running)) return Promise.resolve({ content: resumeProblem(children, input.resume)!, isError: true });
      const def = resumed?.def ?? findDefinition(runtime, input.subagent_type)!;
      return runChild(input, def, runtime, ctx, () => childTools(def, runtime), children, resumed);
    },
  });
}
