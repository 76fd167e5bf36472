/**
 * Set-up for the teams tests: the real loop, just-bash sandbox and scripted models (one script
 * per teammate, keyed by its name), a lead with the team tools and the task tools.
 */
import { agentLoop, builtinTools, FakeClock, SequentialIds, WORKDIR, type LoopInput, type RunResult, type TraceEvent } from '../../src/harness/index.ts';
import type { LoopDeps } from '../../src/harness/loop/types.ts';
import { taskTools } from '../../src/harness/agents/tasks/tools.ts';
import { teamTools, type Team, type TeamRuntime } from '../../src/harness/agents/teams/index.ts';
import { createScriptedClient, type ScriptedClient } from '../../src/model/scripted/client.ts';
import { scriptedAgentModels, type AgentScripts } from '../../src/model/scripted/agent-scripts.ts';
import type { ScriptedBlock, ScriptedTurn } from '../../src/model/scripted/script.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import type { AnyTool } from '../../src/harness/tools/tool.ts';
import type { Sandbox } from '../../src/harness/ports.ts';

export type TeamSetup = { input: LoopInput; deps: LoopDeps; client: ScriptedClient; clock: FakeClock; team: Team };

export async function teamSetup(lead: ScriptedTurn[], scripts: AgentScripts, opts: { files?: Record<string, string>; runtime?: Partial<TeamRuntime>; signal?: AbortSignal; /** Another sandbox (e.g. the worker one) instead of a fresh just-bash. */ sandbox?: Sandbox; /** More tools for every agent (e.g. an MCP registry's). */ tools?: () => AnyTool[] } = {}): Promise<TeamSetup> {
  const clock = new FakeClock();
  const ids = new SequentialIds();
  const client = createScriptedClient(lead);
  const sandbox = opts.sandbox ?? (await createJustBashSandbox({ files: opts.files ?? {} }));
  const extra = opts.tools ?? (() => []);
  const permissions = { mode: 'bypassPermissions' as const, rules: [], workdir: WORKDIR };
  const { team, tools } = teamTools({
    sandbox,
    clock,
    ids,
    tools: () => [...builtinTools(), ...taskTools(), ...extra()],
    modelFor: scriptedAgentModels(scripts),
    modelId: 'test-model',
    maxTokens: 1024,
    permissions,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...opts.runtime,
  });
  const input: LoopInput = {
    messages: [{ role: 'user', content: 'Lead the team.' }],
    system: 'You are the lead.',
    tools: [...builtinTools(), ...taskTools(), ...extra(), ...tools],
    model: 'test-model',
    maxTokens: 1024,
    maxTurns: 30,
    permissions,
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  return { input, deps: { model: client, sandbox, clock, ids }, client, clock, team };
}

export async function runAll(s: { input: LoopInput; deps: LoopDeps }, onEvent?: (e: TraceEvent) => void): Promise<{ events: TraceEvent[]; result: RunResult }> {
  const events: TraceEvent[] = [];
  const loop = agentLoop(s.input, s.deps);
  let step = await loop.next();
  while (!step.done) {
    events.push(step.value);
    onEvent?.(step.value);
    step = await loop.next();
  }
  return { events, result: step.value };
}

export const call = (name: string, input: Record<string, unknown>): ScriptedBlock => ({ type: 'tool_use', name, input });
export const turn = (...content: ScriptedBlock[]): ScriptedTurn => ({ content });
export const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
