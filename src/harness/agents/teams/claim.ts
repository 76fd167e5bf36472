/**
 * Autonomous claiming (s11): an idle teammate takes the highest-priority task that is ready
 * (pending, every blocker completed) and unowned, ties by id (`board.ready` is in `claimOrder`).
 * The whole read-decide-write happens under one lock file (`.team/locks/tasks.lock`), so of several claimers racing for a task exactly one owns it;
 * whether it may is decided by `checkClaim`, the one place ownership is decided.
 */
import type { SandboxFs } from '../../ports.ts';
import { boardOf, checkClaim, type Task } from '../tasks/graph.ts';
import { readTasks, writeTask } from '../tasks/store.ts';
import { withLock, type LockOptions } from './lock.ts';
import { lockPath } from './mailbox.ts';

export type ClaimResult = { task: Task | null; tasks: Task[]; waits: number; allDone: boolean };

export async function claimNextTask(fs: SandboxFs, workdir: string, agent: string, lock: LockOptions): Promise<ClaimResult> {
  const { value, waits } = await withLock(fs, lockPath(workdir, 'tasks'), lock, async () => {
    const { tasks } = await readTasks(fs, workdir);
    const board = boardOf(tasks);
    const allDone = tasks.length > 0 && board.completed.length === tasks.length;
    for (const t of board.ready) {
      if (t.owner && t.owner !== agent) continue;
      const { openBlockers: _o, blocks: _b, ready: _r, ...task } = t;
      if (!checkClaim(tasks, task, agent).ok) continue;
      const claimed: Task = { ...task, owner: agent, status: 'in_progress', updatedAt: lock.clock.now() };
      await writeTask(fs, workdir, claimed);
      return { task: claimed, tasks: tasks.map((x) => (x.id === claimed.id ? claimed : x)), allDone };
    }
    return { task: null, tasks, allDone };
  });
  return { ...value, waits };
}

/** Gives a gone agent's in-progress tasks back to the board (owner cleared, pending again). */
export async function releaseTasksOf(fs: SandboxFs, workdir: string, agent: string, lock: LockOptions): Promise<{ released: Task[]; tasks: Task[] }> {
  const { value } = await withLock(fs, lockPath(workdir, 'tasks'), lock, async () => {
    const { tasks } = await readTasks(fs, workdir);
    const released: Task[] = [];
    const after: Task[] = [];
    for (const t of tasks) {
      if (t.owner !== agent || t.status !== 'in_progress') {
        after.push(t);
        continue;
      }
      const { owner: _owner, ...rest } = t;
      const back: Task = { ...rest, status: 'pending', updatedAt: lock.clock.now() };
      await writeTask(fs, workdir, back);
      released.push(back);
      after.push(back);
    }
    return { released, tasks: after };
  });
  return value;
}
