/**
 * The views over a stream with subagents, from a real run of the built-in scenarios: the main
 * conversation holds only the main agent's messages with each subagent nested under its call,
 * usage is counted per agent, the todo panel follows any prefix of the log, and folding a lane
 * hides its events (and its children's).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { deriveAgentUsage, deriveUsage } from '../../src/ui/state/usage.ts';
import { deriveTodos } from '../../src/ui/agents/todos.ts';
import { agentTree, isFolded } from '../../src/ui/agents/lanes.ts';
import { stageOf } from '../../src/ui/state/stage.ts';
import { run } from './agents-fixture.ts';

async function events(id: string): Promise<TraceEvent[]> {
  const sandbox = await createJustBashSandbox({ files: {} });
  const prepared = await prepareRun({ scenario: findBuiltinScenario(id)!, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  return (await run(prepared)).events;
}

describe('views with subagents', () => {
  it('nests each subagent under its agent call and keeps the main conversation clean', async () => {
    const log = await events('delegate-parallel-subagents');
    const items = deriveConversation(log, { settled: true });
    const tools = items.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => t.kind === 'tool' && t.call.name)).toEqual(['agent', 'agent']);
    const lanes = tools.map((t) => (t.kind === 'tool' ? t.call.lane! : null)!);
    expect(lanes.map((l) => [l.description, l.reason, l.turns])).toEqual([
      ['find the settings', 'completed', 3],
      ['find the logs', 'completed', 3],
    ]);
    // The lane starts with the child's prompt and holds its own tool calls.
    expect(lanes[0]!.items[0]).toMatchObject({ kind: 'user' });
    expect(lanes[0]!.items.filter((i) => i.kind === 'tool').map((i) => i.kind === 'tool' && i.call.name)).toEqual(['grep', 'read']);
    // The main conversation has the prompt, the delegation and the answer: no child messages.
    expect(items.filter((i) => i.kind === 'user')).toHaveLength(1);
    expect(items.filter((i) => i.kind === 'end')).toHaveLength(1);
  });

  it('counts usage per agent, and the total over all of them', async () => {
    const log = await events('delegate-parallel-subagents');
    const per = deriveAgentUsage(log);
    expect(per.size).toBe(3);
    const ends = log.filter((e): e is Extract<TraceEvent, { type: 'run.end' }> => e.type === 'run.end');
    for (const end of ends) expect(per.get(end.agentId)).toEqual(end.usage);
    expect(deriveUsage(log).output_tokens).toBe(ends.reduce((n, e) => n + e.usage.output_tokens, 0));
  });

  it('the todo panel shows the list as of any prefix of the log', async () => {
    const log = await events('plan-with-todos');
    const updates = log.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'todo.updated');
    expect(deriveTodos(log.slice(0, updates[0]!.i))).toEqual([]);
    const first = deriveTodos(log.slice(0, updates[0]!.i + 1));
    expect(first[0]!.todos.map((t) => t.status)).toEqual(['in_progress', 'pending', 'pending', 'pending']);
    const atEnd = deriveTodos(log);
    expect(atEnd[0]!.todos.every((t) => t.status === 'completed')).toBe(true);
    expect(atEnd[0]!.updates).toBe(updates.length);
    expect(atEnd[0]!.lastReminder).toEqual({ why: 'stale', turn: 6 });
  });

  it('folding a lane hides its events; the loop diagram lights the agents node for them', async () => {
    const log = await events('delegate-parallel-subagents');
    const tree = agentTree(log);
    const kids = [...tree.values()].filter((a) => a.depth === 1);
    expect(kids).toHaveLength(2);
    const folded = new Set([kids[0]!.agentId]);
    const visible = log.filter((e) => !isFolded(e.agentId, folded, tree));
    expect(visible.some((e) => e.agentId === kids[0]!.agentId)).toBe(false);
    expect(visible.some((e) => e.agentId === kids[1]!.agentId)).toBe(true);
    expect(stageOf(log.find((e) => e.agentId === kids[0]!.agentId)!)).toBe('agents');
    expect(stageOf(log.find((e) => e.type === 'subagent.start')!)).toBe('agents');
  });
});
