/**
 * Issue 23 §1 for children: a subagent (or teammate) of a run that defers tools defers them too. Its first
 * request carries its core tools plus `tool_search`, it loads a deferred tool on demand, and the
 * `tools.changed` event of that load carries the child's agent id.
 */
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/events.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { runScenario } from './custom-tools-fixture.ts';
import { call, runAll, say, teamSetup, turn } from './teams-fixture.ts';

const TODO = { todos: [{ content: 'count', status: 'in_progress', activeForm: 'Counting' }] };

const MAIN: ScriptedTurn[] = [
  // `agent` is itself deferred: the main agent loads it first.
  { content: [{ type: 'tool_use', name: 'tool_search', input: { query: 'select:agent' } }] },
  { content: [{ type: 'tool_use', name: 'agent', input: { description: 'count the files', prompt: 'How many files? Track it in a todo.' } }] },
  { content: [{ type: 'text', text: 'Done.' }] },
];

const CHILD: ScriptedTurn[] = [
  { content: [{ type: 'tool_use', name: 'tool_search', input: { query: 'select:todo_write' } }] },
  { content: [{ type: 'tool_use', name: 'todo_write', input: TODO }] },
  { content: [{ type: 'text', text: 'Two files.' }] },
];

const CHILD_NO_DEFERRAL: ScriptedTurn[] = [CHILD[1]!, CHILD[2]!];

function scenario(deferTools: boolean): Scenario {
  const turns = deferTools ? MAIN : MAIN.slice(1);
  const r = parseScenario({
    id: 'child-defer',
    title: 'a subagent defers tools',
    prompt: 'go',
    files: { 'a.txt': 'a', 'b.txt': 'b' },
    model: { kind: 'scripted', turns, agents: { 'count the files': deferTools ? CHILD : CHILD_NO_DEFERRAL } },
    settings: { deferTools, agentTools: ['tasks'] },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

const childOf = (events: Awaited<ReturnType<typeof runScenario>>['events']) => ofType(events, 'subagent.start')[0]!.childAgentId;

describe('subagents inherit the parent’s tool deferral', () => {
  it('the child sends fewer schemas on its first request, then loads and calls a deferred tool', async () => {
    const deferred = await runScenario(scenario(true));
    const child = childOf(deferred.events);
    const requests = ofType(deferred.events, 'model.request', child);
    const first = requests[0]!.request.tools!.map((t) => t.name);
    expect(first).toContain('tool_search');
    for (const n of ['todo_write', 'task_create', 'task_list', 'task_get', 'task_update']) expect(first).not.toContain(n);
    expect(requests[0]!.request.tools!.find((t) => t.name === 'tool_search')!.description).toContain('todo_write');

    // Without deferral the child's first request carries every schema: more of them.
    const all = await runScenario(scenario(false));
    const plain = ofType(all.events, 'model.request', childOf(all.events))[0]!.request.tools!.map((t) => t.name);
    expect(plain).toContain('todo_write');
    expect(first.length).toBeLessThan(plain.length);
    expect(JSON.stringify(requests[0]!.request.tools).length).toBeLessThan(JSON.stringify(ofType(all.events, 'model.request', childOf(all.events))[0]!.request.tools).length);

    // The load is the child's own event; the tool joins at the end of the child's list and runs.
    const changed = ofType(deferred.events, 'tools.changed').filter((e) => e.loaded?.includes('todo_write'));
    expect(changed).toHaveLength(1);
    expect(changed[0]!.agentId).toBe(child);
    expect(requests[2]!.request.tools!.map((t) => t.name)).toEqual([...first, 'todo_write']);
    const ran = ofType(deferred.events, 'tool.result', child).find((r) => r.name === 'todo_write')!;
    expect(ran.isError).toBe(false);
    expect(ofType(deferred.events, 'todo.updated', child)).toHaveLength(1);
    expect(ofType(deferred.events, 'run.end', 'main')[0]!.reason).toBe('completed');
  });
});

describe('teammates inherit the deferral', () => {
  it('a teammate sends tool_search instead of its rarely used tools, loads send_message and mails the lead', async () => {
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'alice', prompt: 'Say hello.' })), turn(call('read_inbox', {})), say('Alice said hello.')],
      { alice: [turn(call('tool_search', { query: 'select:send_message' })), turn(call('send_message', { to: 'lead', body: 'hello' })), say('Said hello.')] },
      { runtime: { deferTools: true } },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const own = ofType(events, 'model.request', 'teammate-alice');
    const first = own[0]!.request.tools!.map((t) => t.name);
    expect(first).toContain('tool_search');
    for (const n of ['send_message', 'task_create', 'task_update']) expect(first).not.toContain(n);
    const changed = ofType(events, 'tools.changed').filter((e) => e.loaded?.includes('send_message'));
    expect(changed.map((e) => e.agentId)).toEqual(['teammate-alice']);
    expect(own[2]!.request.tools!.map((t) => t.name)).toEqual([...first, 'send_message']);
    expect(ofType(events, 'mailbox.sent').map((e) => [e.message.from, e.message.body])).toContainEqual(['alice', 'hello']);
  });
});
