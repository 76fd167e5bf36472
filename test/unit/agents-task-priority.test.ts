/**
 * Task priority (seed 003 s07 / s11): tasks carry Claude Code's `high | medium | low`; of the tasks
 * that can start, claiming takes the highest priority first, ties by id — for one claimer, for many
 * racing claimers under the board's lock, and in what `task_list` tells the model.
 */
import { describe, expect, it } from 'vitest';
import { agents, builtinTools, FakeClock, WORKDIR } from '../../src/harness/index.ts';
import { claimNextTask } from '../../src/harness/agents/teams/index.ts';
import { readTasks, writeTask } from '../../src/harness/agents/tasks/store.ts';
import type { Task, TaskPriority } from '../../src/harness/agents/tasks/graph.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const task = (id: string, priority?: TaskPriority, blockedBy: string[] = []): Task => ({
  id, subject: `task ${id}`, description: '', status: 'pending', blockedBy, createdAt: 0, updatedAt: 0, ...(priority ? { priority } : {}),
});
const call = (name: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use' as const, name, input }] });

describe('task priority', () => {
  it('claims the highest-priority ready task first, ties by id; a task without one counts as medium', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    // #10 is high but blocked, so it waits; #2 and #12 are both high: #2 (older) goes first.
    for (const t of [task('1', 'low'), task('2', 'high'), task('3'), task('4', 'medium'), task('10', 'high', ['1']), task('12', 'high')]) await writeTask(sb.fs, sb.workdir, t);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) order.push((await claimNextTask(sb.fs, sb.workdir, `a${i}`, { clock, holder: `a${i}` })).task!.id);
    expect(order).toEqual(['2', '12', '3', '4', '1']);
    expect((await claimNextTask(sb.fs, sb.workdir, 'late', { clock, holder: 'late' })).task).toBeNull();
    await sb.dispose();
  });

  it('concurrent claimers: the high tasks go to the first winners, each task has one owner', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    for (const t of [task('1', 'low'), task('2', 'low'), task('3', 'high'), task('4', 'medium'), task('5', 'high')]) await writeTask(sb.fs, sb.workdir, t);
    // Three claimers for five tasks: whoever wins the lock, the three taken are the best three.
    const results = await Promise.all(['x', 'y', 'z'].map((a) => claimNextTask(sb.fs, sb.workdir, a, { clock, holder: a, retryMs: 1 })));
    expect(results.map((r) => r.task!.id).sort()).toEqual(['3', '4', '5']);
    const { tasks } = await readTasks(sb.fs, sb.workdir);
    expect(tasks.filter((t) => t.status === 'in_progress').map((t) => t.id)).toEqual(['3', '4', '5']);
    expect(new Set(tasks.filter((t) => t.owner).map((t) => t.owner)).size).toBe(3);
    expect(tasks.filter((t) => t.status === 'pending').map((t) => t.id)).toEqual(['1', '2']);
    await sb.dispose();
  });

  it('task_create and task_update take a priority; task_list says it and lists what can start in claim order', async () => {
    const { input, deps } = await setup(
      [
        call('task_create', { subject: 'Tidy the docs', priority: 'low' }),
        call('task_create', { subject: 'Fix the crash', priority: 'high' }),
        call('task_create', { subject: 'Write the tests' }),
        call('task_update', { taskId: '1', priority: 'high' }),
        call('task_create', { subject: 'Bad', priority: 'urgent' }),
        call('task_list', {}),
        { content: [{ type: 'text', text: 'Planned.' }] },
      ],
      { tools: agents.agentTools(builtinTools(), new Set(['tasks'])), input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } } },
    );
    const { events } = await drain(input, deps);
    const r = ofType(events, 'tool.result');
    expect(ofType(events, 'task.updated')[0]!.changes).toEqual(['priority high']);
    expect(r[4]!.isError).toBe(true);
    expect(r[4]!.content).toMatch(/priority/);
    expect(r[5]!.content).toContain('#3 [pending] Write the tests (priority: medium)');
    expect(r[5]!.content).toContain('Can start now: #1, #2, #3');
    const { tasks } = await readTasks(deps.sandbox.fs, WORKDIR);
    expect(tasks.map((t) => t.priority)).toEqual(['high', 'high', 'medium']);
  });

  it('the schema the model sees offers exactly high, medium and low on create and update', () => {
    for (const tool of [agents.taskCreateTool(), agents.taskUpdateTool()]) {
      const props = (tool.inputJsonSchema as unknown as { properties: Record<string, { enum?: string[] }> }).properties;
      expect(props.priority?.enum).toEqual(['high', 'medium', 'low']);
    }
  });
});
