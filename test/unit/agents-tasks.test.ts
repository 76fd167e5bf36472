/**
 * The task graph against the real loop and just-bash: tasks are files in `.tasks/`, unknown
 * dependencies and cycles are refused with a clear error, a blocked task cannot start, completing
 * one unblocks the next, and every change is a `task.*` event carrying the whole board.
 */
import { describe, expect, it } from 'vitest';
import { agents, builtinTools, WORKDIR } from '../../src/harness/index.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const call = (name: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use' as const, name, input }] });

describe('task graph', () => {
  it('is worked in dependency order, refuses what cannot be, and lives in .tasks/', async () => {
    const { input, deps } = await setup(
      [
        call('task_create', { subject: 'Read the parser' }),
        call('task_create', { subject: 'Write parser tests', blockedBy: ['1'] }),
        call('task_create', { subject: 'Fix the parser', blockedBy: ['1', '2'] }),
        call('task_create', { subject: 'Ghost', blockedBy: ['9'] }),
        call('task_update', { taskId: '1', addBlockedBy: ['3'] }),
        call('task_update', { taskId: '2', status: 'in_progress' }),
        call('task_update', { taskId: '1', status: 'in_progress' }),
        call('task_update', { taskId: '1', status: 'completed' }),
        call('task_list', {}),
        { content: [{ type: 'text', text: 'Task 1 is done; 2 can start.' }] },
      ],
      // Default mode and no person to ask: the task tools need no approval.
      { tools: agents.agentTools(builtinTools(), new Set(['tasks'])), input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } } },
    );
    const { events, result } = await drain(input, deps);
    const r = ofType(events, 'tool.result').map((e) => ({ isError: e.isError, content: e.content }));
    expect(r.slice(0, 3).every((x) => !x.isError)).toBe(true);
    expect(r[1]!.content).toContain('It waits for #1');
    expect(r[3]).toMatchObject({ isError: true });
    expect(r[3]!.content).toMatch(/#9, which does not exist/);
    expect(r[4]).toMatchObject({ isError: true });
    expect(r[4]!.content).toContain('cycle: #1 → #3 → #1');
    expect(r[5]).toMatchObject({ isError: true });
    expect(r[5]!.content).toMatch(/blocked by #1, which is not completed/);
    expect(r[6]!.isError).toBe(false);
    expect(r[7]!.content).toContain('Now unblocked: #2');
    expect(r[8]!.content).toContain('Can start now: #2');
    expect(r[8]!.content).toContain('#3 [pending] Fix the parser [blocked by #2]');

    // Files are the truth: they survive whatever happens to the conversation.
    const read = await agents.readTasks(deps.sandbox.fs, WORKDIR);
    expect(read.tasks.map((t) => [t.id, t.status, t.owner ?? null])).toEqual([
      ['1', 'completed', 'main'],
      ['2', 'pending', null],
      ['3', 'pending', null],
    ]);
    const board = agents.boardOf(read.tasks);
    expect(board.ready.map((t) => t.id)).toEqual(['2']);
    expect(board.blocked.map((t) => [t.id, t.openBlockers])).toEqual([['3', ['2']]]);

    const created = ofType(events, 'task.created');
    expect(created).toHaveLength(3);
    expect(created[2]!.tasks).toHaveLength(3);
    const updated = ofType(events, 'task.updated');
    expect(updated.map((u) => u.changes)).toEqual([['owner main', 'status pending → in_progress'], ['status in_progress → completed']]);
    expect(ofType(events, 'task.listed')[0]!.tasks).toHaveLength(3);
    expect(result.reason).toBe('completed');
  });

  it('checkClaim is the one place that decides who may start a task', () => {
    const t = (id: string, status: agents.TaskStatus, blockedBy: string[] = [], owner?: string): agents.Task => ({
      id, subject: id, description: '', status, blockedBy, createdAt: 0, updatedAt: 0, ...(owner ? { owner } : {}),
    });
    const tasks = [t('1', 'completed'), t('2', 'in_progress', ['1'], 'alice'), t('3', 'pending', ['2'])];
    expect(agents.checkClaim(tasks, tasks[1]!, 'alice')).toEqual({ ok: true });
    expect(agents.checkClaim(tasks, tasks[1]!, 'bob')).toMatchObject({ ok: false, message: expect.stringContaining('already in progress by alice') });
    expect(agents.checkClaim(tasks, tasks[2]!, 'bob')).toMatchObject({ ok: false, message: expect.stringContaining('blocked by #2') });
    expect(agents.cycleVia(tasks, '1', ['3'])).toEqual(['1', '3', '2', '1']);
  });
});

describe('tasks outlive the conversation', () => {
  it('a session snapshot carries .tasks/, so a resumed or forked sandbox has the same board', async () => {
    const { snapshotSandbox, restoreSnapshot } = await import('../../src/harness/session/snapshot.ts');
    const { createJustBashSandbox } = await import('../../src/sandbox/justbash/index.ts');
    const { input, deps } = await setup(
      [call('task_create', { subject: 'First' }), call('task_create', { subject: 'Second', blockedBy: ['1'] }), { content: [{ type: 'text', text: 'Planned.' }] }],
      { tools: agents.agentTools(builtinTools(), new Set(['tasks'])) },
    );
    await drain(input, deps);
    const snap = await snapshotSandbox(deps.sandbox.fs, WORKDIR);
    const fresh = await createJustBashSandbox({ files: {} });
    await restoreSnapshot(fresh.fs, WORKDIR, snap);
    const restored = await agents.readTasks(fresh.fs, WORKDIR);
    expect(restored.tasks.map((t) => [t.id, t.subject, t.blockedBy])).toEqual([
      ['1', 'First', []],
      ['2', 'Second', ['1']],
    ]);
    expect(agents.boardOf(restored.tasks).ready.map((t) => t.id)).toEqual(['1']);
    await fresh.dispose();
  });
});
