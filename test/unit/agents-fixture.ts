/**
 * Set-up for the todo and subagent tests: the real loop, just-bash sandbox and scripted models,
 * with the agent tool pool built the way a scenario builds it (`agentToolPool`).
 */
import { agentLoop, builtinTools, FakeClock, SequentialIds, WORKDIR, type AnyTool, type LoopInput, type Message, type RunResult, type TraceEvent } from '../../src/harness/index.ts';
import { agentToolPool, type SubagentRuntime } from '../../src/harness/agents/index.ts';
import type { LoopDeps } from '../../src/harness/loop/types.ts';
import { createScriptedClient, type ScriptedClient } from '../../src/model/scripted/client.ts';
import { scriptedAgentModels, type AgentScripts } from '../../src/model/scripted/agent-scripts.ts';
import type { ScriptedBlock, ScriptedTurn } from '../../src/model/scripted/script.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

export type AgentSetup = { input: LoopInput; deps: LoopDeps; client: ScriptedClient; clock: FakeClock };

export type AgentSetupOptions = {
  files?: Record<string, string>;
  agents?: AgentScripts;
  /** Extra tools for main and children (e.g. a barrier probe). */
  extraTools?: () => AnyTool[];
  runtime?: Partial<SubagentRuntime>;
  input?: Partial<LoopInput>;
  deps?: Partial<LoopDeps>;
  prompt?: string;
};

export async function agentSetup(turns: ScriptedTurn[], opts: AgentSetupOptions = {}): Promise<AgentSetup> {
  const clock = new FakeClock();
  const client = createScriptedClient(turns);
  const sandbox = await createJustBashSandbox({ files: opts.files ?? {} });
  const permissions = opts.input?.permissions ?? { mode: 'bypassPermissions' as const, rules: [], workdir: WORKDIR };
  const base = () => [...builtinTools(), ...(opts.extraTools?.() ?? [])];
  const { tools } = await agentToolPool({
    sandbox,
    base,
    runtime: { modelFor: scriptedAgentModels(opts.agents ?? {}), modelId: 'test-model', maxTokens: 1024, permissions, ...opts.runtime },
  });
  const input: LoopInput = {
    messages: [{ role: 'user', content: opts.prompt ?? 'Do the task.' }],
    system: 'You are the main test agent.',
    tools,
    model: 'test-model',
    maxTokens: 1024,
    maxTurns: 20,
    permissions,
    ...opts.input,
  };
  return { input, deps: { model: client, sandbox, clock, ids: new SequentialIds(), ...opts.deps }, client, clock };
}

export async function run(s: { input: LoopInput; deps: LoopDeps }): Promise<{ events: TraceEvent[]; result: RunResult }> {
  const events: TraceEvent[] = [];
  const loop = agentLoop(s.input, s.deps);
  let step = await loop.next();
  while (!step.done) {
    events.push(step.value);
    step = await loop.next();
  }
  return { events, result: step.value };
}

/** One agent's history rebuilt from its `message.appended` / `history.rewritten` events. */
export function historyOf(events: readonly TraceEvent[], agentId: string): Message[] {
  let messages: Message[] = [];
  for (const e of events) {
    if (e.agentId !== agentId) continue;
    if (e.type === 'history.rewritten') messages = [...e.messages];
    if (e.type === 'message.appended') {
      messages = e.index < messages.length ? [...messages.slice(0, e.index), e.message, ...messages.slice(e.index + 1)] : [...messages, e.message];
    }
  }
  return messages;
}

export const agentCall = (description: string, prompt: string, subagent_type?: string, id?: string): ScriptedBlock => ({
  type: 'tool_use',
  ...(id ? { id } : {}),
  name: 'agent',
  input: { description, prompt, ...(subagent_type ? { subagent_type } : {}) },
});

export const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
