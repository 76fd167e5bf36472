/**
 * Tasks as files in the sandbox: `.tasks/<id>.json`, one per task. Being files, they outlive the
 * conversation: compaction does not touch them, and resume and fork carry them with the sandbox.
 * Each tool call re-reads the folder, so edits by other agents (or the person) are seen.
 */
import type { SandboxFs } from '../../ports.ts';
import type { Task } from './graph.ts';

export const TASKS_DIR = '.tasks';

export type TaskRead = { tasks: Task[]; problems: string[] };

export async function readTasks(fs: SandboxFs, workdir: string): Promise<TaskRead> {
  const dir = `${workdir}/${TASKS_DIR}`;
  const entries = await fs.list(dir).catch(() => []);
  const tasks: Task[] = [];
  const problems: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'file' || !e.name.endsWith('.json')) continue;
    try {
      const t = JSON.parse(await fs.readFile(`${dir}/${e.name}`)) as Task;
      if (typeof t.id !== 'string' || typeof t.subject !== 'string' || !Array.isArray(t.blockedBy)) throw new Error('not a task');
      tasks.push(t);
    } catch (err) {
      problems.push(`${TASKS_DIR}/${e.name} is not a readable task (${err instanceof Error ? err.message : String(err)}); it was skipped.`);
    }
  }
  tasks.sort((a, b) => Number(a.id) - Number(b.id));
  return { tasks, problems };
}

export async function writeTask(fs: SandboxFs, workdir: string, task: Task): Promise<void> {
  await fs.writeFile(`${workdir}/${TASKS_DIR}/${task.id}.json`, JSON.stringify(task, null, 2) + '\n');
}

export function nextTaskId(tasks: readonly Task[]): string {
  return String(tasks.reduce((m, t) => Math.max(m, Number(t.id) || 0), 0) + 1);
}
