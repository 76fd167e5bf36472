/**
 * One subagent run, from the `agent` tool's call: SubagentStart hooks, a fresh `agentLoop` whose
 * every event is forwarded into the parent's stream (and waits there until the consumer pulls
 * it, so stepping walks the child one event at a time), then `subagent.stop` and the result the
 * parent's model sees: the final text and a usage trailer.
 */
import { parseContextSettings } from '../../context/settings.ts';
import { agentLoop } from '../../loop/agent-loop.ts';
import { deferredToolNames } from '../../loop/deferred-tools.ts';
import { drainInto, fireHook, type HookSiteEnv, type LoopHooks } from '../../loop/hook-site.ts';
import type { LoopDeps, LoopInput, RunResult } from '../../loop/types.ts';
import { textOf, toolUsesOf, type Message } from '../../messages.ts';
import { FileState } from '../../tools/file-state.ts';
import type { AnyTool, ToolContext, ToolOutcome } from '../../tools/tool.ts';
import type { TraceEvent } from '../../trace.ts';
import type { AgentInput } from './agent-tool.ts';
import { DEFAULT_SUBAGENT_MAX_TURNS, type SubagentDefinition } from './definitions.ts';
import { subagentModelId } from './model-alias.ts';
import { childMode, type SubagentRuntime } from './runtime.ts';
import { openChildWorkspace } from './child-workspace.ts';
import type { ChildRegistry, FinishedChild } from './continuation.ts';

/** Hook events that belong to the session or the main agent, not to a subagent's own loop. */
const MAIN_ONLY_HOOKS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'StopFailure', 'SessionEnd', 'TeammateIdle'] as const;

export function childHooks(hooks: LoopHooks | undefined): LoopHooks | undefined {
  if (!hooks) return undefined;
  const config = { ...hooks.config };
  for (const e of MAIN_ONLY_HOOKS) delete config[e];
  return { ...hooks, config };
}

/** The last assistant text of the child's history: the only thing the parent's model sees. */
export function finalText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      const t = textOf(m).trim();
      if (t) return t;
    }
  }
  return '';
}

/**
 * A child of a parent that defers tools defers the same ones (its own pool, its own window): it
 * sends its core tools plus `tool_search` and loads the rest on demand; its `tools.changed` events
 * carry its agent id like every event of its loop.
 */
export function childDeferral(tools: readonly AnyTool[], runtime: Pick<SubagentRuntime, 'deferTools' | 'context'>, history: readonly Message[] = []): { deferTools?: string[] } {
  if (!runtime.deferTools) return {};
  // A tool its history already called (a resumed agent, a teammate's earlier wake) is sent at once.
  const used = new Set(history.flatMap((m) => toolUsesOf(m).map((u) => u.name)));
  const names = deferredToolNames(tools, parseContextSettings(runtime.context ?? {}).windowTokens).filter((n) => !used.has(n));
  return names.length > 0 ? { deferTools: names } : {};
}

export type ChildSummary = { turns: number; totalTokens: number; toolUses: number; ms: number };

/** Claude Code's trailer shape: a `<usage>` block after the agent's answer. */
export function usageTrailer(agentId: string, s: ChildSummary): string {
  return `agentId: ${agentId}\n<usage>turns: ${s.turns}\ntotal_tokens: ${s.totalTokens}\ntool_uses: ${s.toolUses}\nduration_ms: ${s.ms}</usage>`;
}

/**
 * `toolsOf` builds the child's tools (`childTools` in agent-tool.ts, which may include `agent`
 * again): passed in rather than imported, so the agent tool and the child it runs are no cycle.
 * With `resumed` the same agent goes on: same id, model client and history, plus the follow-up.
 * Whatever way it ends, it is kept in `children` so it can be continued again.
 */
export async function runChild(
  input: AgentInput,
  def: SubagentDefinition,
  runtime: SubagentRuntime,
  ctx: ToolContext,
  toolsOf: () => AnyTool[],
  children: ChildRegistry,
  resumed?: FinishedChild,
): Promise<ToolOutcome> {
  const parentCall = ctx.toolUseId ?? 'unknown';
  const agentId = resumed?.agentId ?? ctx.ids.next(`agent-${def.name}`);
  const forward = ctx.emit ?? (async () => {});
  const started = ctx.clock.now();
  const resolved: { id: string; note?: string } = resumed ? { id: resumed.modelId } : subagentModelId(def.model, runtime.modelId, runtime.modelAliases);
  const model = resumed?.model ?? runtime.modelFor({ agentId, description: input.description, subagentType: def.name, ...(def.model || runtime.modelAliases?.subagent ? { model: resolved.id } : {}) });
  if ('error' in model) return { content: `The ${def.name} agent could not start: ${model.error}`, isError: true };
  if (resumed) resumed.running = true;
  const isolation = resumed ? resumed.isolation : input.isolation;

  const mode = childMode(runtime.permissions.mode, def.permissionMode);
  const tools = toolsOf();
  const maxTurns = def.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS;
  // Claude Code's aliases name a model family: mapped to its id (model-alias.ts).
  const modelId = resolved.id;
  const notes = [mode.note, resolved.note].filter(Boolean);
  await forward({
    type: 'subagent.start',
    toolUseId: parentCall,
    childAgentId: agentId,
    subagentType: def.name,
    description: input.description,
    prompt: input.prompt,
    model: modelId,
    tools: tools.map((t) => t.name),
    maxTurns,
    permissionMode: mode.mode,
    depth: runtime.depth + 1,
    ...(notes.length ? { note: notes.join('; ') } : {}),
    ...(resumed ? { resumed: { priorMessages: resumed.messages.length, runs: resumed.runs } } : {}),
  });

  // SubagentStart hooks run in the parent's stream; their additionalContext joins the child's prompt.
  const hooks = childHooks(runtime.hooks);
  const hookEnv: HookSiteEnv = { ...(runtime.hooks ? { hooks: runtime.hooks } : {}), sandbox: ctx.sandbox, clock: ctx.clock, signal: ctx.signal, cwd: ctx.cwd };
  const sideEvents: Parameters<typeof forward>[0][] = [];
  const start = await drainInto(fireHook({ event: 'SubagentStart', agentId, agentType: def.name }, hookEnv), (e) => sideEvents.push(e));
  for (const e of sideEvents) await forward(e);
  const prompt = start?.additionalContext ? `${input.prompt}\n\nSubagentStart hook context:\n${start.additionalContext}` : input.prompt;

  // isolation: the child works in its own copy of the tree; its changes are offered back at its end.
  const workspace = await openChildWorkspace({ ...input, ...(isolation ? { isolation } : {}) }, def, agentId, ctx, forward);
  if ('error' in workspace) {
    if (resumed) resumed.running = false;
    return { content: `The ${def.name} agent could not start: ${workspace.error}`, isError: true };
  }

  const childInput: LoopInput = {
    // A continued agent sees its own earlier work, then the parent's follow-up.
    messages: [...(resumed?.messages ?? []), { role: 'user', content: prompt }],
    system: def.system,
    tools,
    model: modelId,
    maxTokens: runtime.maxTokens,
    maxTurns,
    cwd: ctx.cwd,
    signal: ctx.signal,
    permissions: { ...runtime.permissions, mode: mode.mode },
    ...(runtime.context ? { context: runtime.context } : {}),
    ...childDeferral(tools, runtime, resumed?.messages),
  };
  const childDeps: LoopDeps = {
    model,
    sandbox: workspace.sandbox,
    clock: ctx.clock,
    ids: ctx.ids,
    agentId,
    parentToolUseId: parentCall,
    subagent: { agentType: def.name },
    // Its own read state: it must read a file itself before it may edit it.
    files: new FileState(),
    ...(hooks ? { hooks } : {}),
    ...(runtime.prompt ? { prompt: (req) => runtime.prompt!({ ...req, agent: { id: agentId, label: `${def.name}: ${input.description}` } }) } : {}),
    ...(runtime.sessionGrants ? { sessionGrants: runtime.sessionGrants } : {}),
    ...(runtime.summarize ? { summarize: runtime.summarize } : {}),
    ...(runtime.collapseSummarize ? { collapseSummarize: runtime.collapseSummarize } : {}),
  };

  let toolUses = 0;
  const loop = agentLoop(childInput, childDeps);
  let step = await loop.next();
  while (!step.done) {
    const e: TraceEvent = step.value;
    if (e.type === 'tool.started' && e.agentId === agentId) toolUses++;
    await forward(e);
    step = await loop.next();
  }
  const result: RunResult = step.value;
  const summary: ChildSummary = {
    turns: result.turns,
    totalTokens: result.usage.input_tokens + result.usage.output_tokens + (result.usage.cache_read_input_tokens ?? 0) + (result.usage.cache_creation_input_tokens ?? 0),
    toolUses,
    ms: ctx.clock.now() - started,
  };
  const text = finalText(result.messages);
  const offered = await workspace.close();
  children.set(agentId, { agentId, def, model, modelId, messages: result.messages, ...(isolation ? { isolation } : {}), runs: (resumed?.runs ?? 0) + 1, running: false });
  await forward({
    type: 'subagent.stop',
    toolUseId: parentCall,
    childAgentId: agentId,
    subagentType: def.name,
    reason: result.reason,
    turns: summary.turns,
    usage: result.usage,
    toolUses,
    ms: summary.ms,
    finalText: text,
  });
  return outcomeOf(def.name, result, text, offered ? `${offered}\n\n${usageTrailer(agentId, summary)}` : usageTrailer(agentId, summary));
}

function outcomeOf(name: string, result: RunResult, text: string, trailer: string): ToolOutcome {
  switch (result.reason) {
    case 'completed':
      return { content: `${text || '(the agent finished without a final message)'}\n\n${trailer}` };
    case 'max_turns':
      return { content: `The ${name} agent stopped at its turn limit before it finished.${text ? ` Its last message:\n${text}` : ''}\n\n${trailer}`, isError: true };
    case 'aborted':
      return { content: `The ${name} agent was stopped by the user before it finished.\n\n${trailer}`, isError: true };
    default:
      return {
        content: `The ${name} agent ended with ${result.reason}${result.error ? ` (${result.error.kind}: ${result.error.message})` : ''}.${text ? ` Its last message:\n${text}` : ''}\n\n${trailer}`,
        isError: true,
      };
  }
}
