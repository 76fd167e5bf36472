/**
 * The todo list against the real loop: `todo_write` replaces the list (`todo.updated`), a second
 * item in progress is a tool error that changes nothing, the list is shown again when it goes
 * stale and after a summary, and a follow-up run picks it up from the history.
 */
import { describe, expect, it } from 'vitest';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { TODO_ACCEPTED, todosFromHistory, type TodoItem } from '../../src/harness/agents/index.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { agentSetup, run, say } from './agents-fixture.ts';
import { ofType } from '../helpers/events.ts';

const item = (content: string, status: TodoItem['status']): TodoItem => ({ content, status, activeForm: `${content}ing` });
const write = (todos: TodoItem[]): ScriptedTurn => ({ content: [{ type: 'tool_use', name: 'todo_write', input: { todos } }] });
const bash = (command: string): ScriptedTurn => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });

describe('todo_write', () => {
  it('replaces the list and reports it as todo.updated', async () => {
    const first = [item('Read', 'in_progress'), item('Fix', 'pending')];
    const second = [item('Read', 'completed'), item('Fix', 'in_progress')];
    const s = await agentSetup([write(first), write(second), say('done')]);
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const updates = ofType(events, 'todo.updated');
    expect(updates.map((u) => [u.previous, u.todos])).toEqual([
      [[], first],
      [first, second],
    ]);
    expect(ofType(events, 'tool.result').every((r) => r.content === TODO_ACCEPTED && !r.isError)).toBe(true);
    // The update follows the call's result and comes before the results go back to the model.
    const i = events.indexOf(updates[0]!);
    expect(events[i - 1]!.type).toBe('tool.result');
  });

  it('a second item in progress is a clear tool error, and the list stays as it was', async () => {
    const good = [item('A', 'in_progress'), item('B', 'pending')];
    const s = await agentSetup([write(good), write([item('A', 'in_progress'), item('B', 'in_progress')]), say('ok')]);
    const { events } = await run(s);
    const results = ofType(events, 'tool.result');
    expect(results[1]!.isError).toBe(true);
    expect(results[1]!.content).toContain('Only one todo may be in_progress at a time; 2 are: #1 "A", #2 "B"');
    expect(results[1]!.content).toContain('Nothing was changed');
    expect(ofType(events, 'todo.updated')).toHaveLength(1);
  });

  it('rejects items without an activeForm, naming the field', async () => {
    const s = await agentSetup([{ content: [{ type: 'tool_use', name: 'todo_write', input: { todos: [{ content: 'A', status: 'pending' }] } }] }, say('ok')]);
    const { events } = await run(s);
    const r = ofType(events, 'tool.result')[0]!;
    expect(r.isError).toBe(true);
    expect(r.content).toContain('todos.0.activeForm: missing');
  });

  it('reminds the model of an open list it has not touched for 3 turns, then counts again', async () => {
    const todos = [item('Look', 'in_progress'), item('Report', 'pending')];
    const s = await agentSetup([write(todos), bash('echo 1'), bash('echo 2'), bash('echo 3'), bash('echo 4'), bash('echo 5'), bash('echo 6'), say('done')]);
    const { events } = await run(s);
    const reminders = ofType(events, 'todo.reminder');
    expect(reminders.map((r) => [r.why, r.turnsSinceWrite, r.turn])).toEqual([
      ['stale', 3, 4],
      ['stale', 3, 7],
    ]);
    // The 5th request (after turn 4) carries the reminder with the list; the 4th does not.
    const req = (n: number) => JSON.stringify(s.client.requests[n - 1]!.messages.at(-1));
    expect(req(4)).not.toContain('system-reminder');
    expect(req(5)).toContain('The todo list has not been updated for 3 turns');
    expect(req(5)).toContain('1. [in_progress] Look');
  });

  it('does not remind when every item is completed', async () => {
    const s = await agentSetup([write([item('A', 'completed')]), bash('echo 1'), bash('echo 2'), bash('echo 3'), bash('echo 4'), say('done')]);
    const { events } = await run(s);
    expect(ofType(events, 'todo.reminder')).toHaveLength(0);
  });

  it('survives an auto-compact: the list is re-attached after the summary', async () => {
    const files = Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`data/part${n}.txt`, `part ${n} ERROR line\n`.repeat(340)]));
    const todos = [item('Read every part', 'in_progress'), item('Tally the errors', 'pending')];
    const turns = [write(todos), ...[1, 2, 3, 4, 5, 6].map((n) => bash(`cat data/part${n}.txt`)), say('Tally done.')];
    const s = await agentSetup(turns, {
      files,
      input: { context: { windowTokens: 14000, autoCompactThreshold: 0.7, microcompact: { enabled: false }, collapse: { enabled: false } } },
      deps: { summarize: deterministicSummarizer },
    });
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const rewritten = ofType(events, 'history.rewritten').find((e) => e.layers.includes('auto_compact'));
    expect(rewritten).toBeDefined();
    const back = ofType(events, 'todo.reminder').filter((r) => r.why === 'compaction');
    expect(back.length).toBeGreaterThan(0);
    expect(back[0]!.todos).toEqual(todos);
    // The request right after the summary, and the stored history, both carry the list.
    const compactTurn = back[0]!.turn;
    const request = ofType(events, 'model.request').find((r) => r.turn === compactTurn)!;
    expect(JSON.stringify(request.request.messages)).toContain('Your todo list is unchanged');
    expect(todosFromHistory(result.messages)).toEqual(todos);
  });

  it('a follow-up run picks the list up from the history', async () => {
    const todos = [item('A', 'completed'), item('B', 'in_progress')];
    const first = await agentSetup([write(todos), say('paused')]);
    const one = await run(first);
    expect(todosFromHistory(one.result.messages)).toEqual(todos);
    const follow = await agentSetup([bash('echo 1'), bash('echo 2'), bash('echo 3'), say('done')], {
      input: { messages: [...one.result.messages, { role: 'user', content: 'carry on' }] },
    });
    const two = await run(follow);
    expect(ofType(two.events, 'todo.reminder')[0]!.todos).toEqual(todos);
  });
});
