/**
 * `task_create`, `task_list`, `task_get`, `task_update`: the task graph as tools (Claude Code's
 * TaskCreate / TaskList / TaskGet / TaskUpdate). Dependencies are checked when they are added
 * (unknown ids and cycles are refused), "what can start now" is computed from the files, and
 * starting a blocked task is refused. Every change is reported as a `task.*` event with the
 * whole board, so the UI's board is right at every step.
 */
import { z } from 'zod';
import { fail } from '../../tools/shared.ts';
import { buildTool, type ToolContext } from '../../tools/tool.ts';
import { boardOf, checkClaim, cycleVia, DEFAULT_PRIORITY, priorityOf, unknownDependencies, TASK_PRIORITIES, type Board, type Task } from './graph.ts';
import { nextTaskId, readTasks, writeTask, TASKS_DIR } from './store.ts';

const taskId = z.string().min(1).describe('The task id, e.g. "3".');
const priority = z
  .enum(TASK_PRIORITIES)
  .describe('high, medium (the default) or low. Of the tasks that can start, the highest priority is claimed first; ties go to the older task.');

function line(t: Board['tasks'][number]): string {
  const owner = t.owner ? ` (owner: ${t.owner})` : '';
  const blocked = t.openBlockers.length > 0 ? ` [blocked by ${t.openBlockers.map((b) => `#${b}`).join(', ')}]` : '';
  return `#${t.id} [${t.status}] ${t.subject}${owner}${blocked} (priority: ${priorityOf(t)})`;
}

export function boardText(board: Board): string {
  if (board.tasks.length === 0) return 'No tasks yet. Create them with task_create.';
  const ready = board.ready.length > 0 ? board.ready.map((t) => `#${t.id}`).join(', ') : 'none';
  // `board.ready` is in claim order: highest priority first, so the model reads what to take next.
  return [...board.tasks.map(line), '', `Can start now: ${ready}`].join('\n');
}

async function load(ctx: ToolContext) {
  return readTasks(ctx.sandbox.fs, ctx.sandbox.workdir);
}

function withProblems(text: string, problems: string[]): string {
  return problems.length > 0 ? `${text}\n\nProblems:\n${problems.join('\n')}` : text;
}

function unknownTask(id: string, tasks: Task[]): string {
  return `No task #${id}. ${tasks.length > 0 ? `Tasks: ${tasks.map((t) => `#${t.id}`).join(', ')}.` : 'There are no tasks yet: create one with task_create.'}`;
}

function depsProblem(tasks: Task[], id: string, blockedBy: string[]): string | null {
  const unknown = unknownDependencies(tasks, blockedBy);
  if (unknown.length > 0) {
    return `blockedBy names ${unknown.map((u) => `#${u}`).join(', ')}, which ${unknown.length === 1 ? 'does' : 'do'} not exist. Create ${unknown.length === 1 ? 'it' : 'them'} first (tasks: ${tasks.map((t) => `#${t.id}`).join(', ') || 'none'}).`;
  }
  if (blockedBy.includes(id)) return `a task cannot be blocked by itself (#${id}).`;
  const cycle = cycleVia(tasks, id, blockedBy);
  if (cycle) return `that would make a cycle: ${cycle.map((c) => `#${c}`).join(' → ')}. Tasks must form a graph without cycles; drop one of these dependencies.`;
  return null;
}

const createSchema = z.strictObject({
  subject: z.string().min(1).max(200).describe('A short imperative title, e.g. "Write the parser tests".'),
  description: z.string().max(5000).optional().describe('What done looks like, in a few sentences.'),
  blockedBy: z.array(taskId).optional().describe('Ids of tasks that must be completed before this one can start.'),
  activeForm: z.string().max(200).optional().describe('Present-tense label shown while it is in progress.'),
  priority: priority.optional(),
});

const SHARED = `Tasks are stored as files in ${TASKS_DIR}/ in the project, so they survive compaction, resume and fork.`;

export function taskCreateTool() {
  return buildTool<z.infer<typeof createSchema>>({
    name: 'task_create',
    description: `Creates a task in the project's task graph. Use it to break down work with several steps that depend on each other; give each task the ids it waits for in blockedBy. ${SHARED} Unknown ids and cycles are refused.`,
    inputSchema: createSchema,
    // It writes only the harness's own bookkeeping in .tasks/, never the user's files; like Claude Code's task tools it needs no approval.
    isReadOnly: () => true,
    async call(input, ctx) {
      const { tasks, problems } = await load(ctx);
      const id = nextTaskId(tasks);
      const blockedBy = [...new Set(input.blockedBy ?? [])];
      const bad = depsProblem(tasks, id, blockedBy);
      if (bad) return fail(`Task not created: ${bad}`);
      const now = ctx.clock.now();
      const task: Task = {
        id,
        subject: input.subject,
        description: input.description ?? '',
        status: 'pending',
        priority: input.priority ?? DEFAULT_PRIORITY,
        blockedBy,
        ...(input.activeForm ? { activeForm: input.activeForm } : {}),
        createdAt: now,
        updatedAt: now,
      };
      // Claude Code's TaskCreated: a hook that blocks rolls the creation back; its reason goes to the model.
      const veto = await taskHookVeto(ctx, 'TaskCreated', task);
      if (veto) return fail(`Task not created: ${veto}`);
      await writeTask(ctx.sandbox.fs, ctx.sandbox.workdir, task);
      const all = [...tasks, task];
      ctx.report?.({ type: 'task.created', task, tasks: all });
      const board = boardOf(all);
      const state = board.ready.some((t) => t.id === id) ? 'It can start now.' : `It waits for ${blockedBy.map((b) => `#${b}`).join(', ')}.`;
      return { content: withProblems(`Created task #${id}: ${task.subject}. ${state}`, problems) };
    },
  });
}

export function taskListTool() {
  return buildTool<Record<string, never>>({
    name: 'task_list',
    description: `Lists every task with its status, owner and open blockers, and which tasks can start now (pending, every blocker completed). ${SHARED}`,
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(_input, ctx) {
      const { tasks, problems } = await load(ctx);
      ctx.report?.({ type: 'task.listed', tasks });
      return { content: withProblems(boardText(boardOf(tasks)), problems) };
    },
  });
}

export function taskGetTool() {
  return buildTool<{ taskId: string }>({
    name: 'task_get',
    description: 'Shows one task in full: subject, description, status, owner, what blocks it and what it blocks.',
    inputSchema: z.strictObject({ taskId }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(input, ctx) {
      const { tasks } = await load(ctx);
      const t = boardOf(tasks).tasks.find((x) => x.id === input.taskId);
      if (!t) return fail(unknownTask(input.taskId, tasks));
      const lines = [
        `#${t.id} ${t.subject}`,
        `status: ${t.status}${t.ready ? ' (can start now)' : ''}`,
        `priority: ${priorityOf(t)}`,
        `owner: ${t.owner ?? '(none)'}`,
        `blockedBy: ${t.blockedBy.map((b) => `#${b}`).join(', ') || '(none)'}${t.openBlockers.length > 0 ? ` — open: ${t.openBlockers.map((b) => `#${b}`).join(', ')}` : ''}`,
        `blocks: ${t.blocks.map((b) => `#${b}`).join(', ') || '(none)'}`,
      ];
      if (t.description) lines.push('', t.description);
      return { content: lines.join('\n') };
    },
  });
}

const updateSchema = z.strictObject({
  taskId,
  status: z.enum(['pending', 'in_progress', 'completed']).optional(),
  owner: z.string().min(1).max(100).optional().describe('Who works on it; starting a task without one makes you the owner.'),
  subject: z.string().min(1).max(200).optional(),
  description: z.string().max(5000).optional(),
  activeForm: z.string().max(200).optional(),
  priority: priority.optional(),
  addBlockedBy: z.array(taskId).optional().describe('More ids this task must wait for (checked for unknown ids and cycles).'),
});

export function taskUpdateTool() {
  return buildTool<z.infer<typeof updateSchema>>({
    name: 'task_update',
    description: `Updates a task: mark it in_progress when you start it and completed when it is done, change its owner, wording or dependencies. A task cannot start while a blocker is open; completing a task unblocks the tasks waiting for it. ${SHARED}`,
    inputSchema: updateSchema,
    // Bookkeeping in .tasks/ only, as for task_create.
    isReadOnly: () => true,
    async call(input, ctx) {
      const { tasks } = await load(ctx);
      const before = tasks.find((t) => t.id === input.taskId);
      if (!before) return fail(unknownTask(input.taskId, tasks));
      const changes: string[] = [];
      const task: Task = { ...before, blockedBy: [...before.blockedBy] };
      if (input.addBlockedBy && input.addBlockedBy.length > 0) {
        const added = input.addBlockedBy.filter((b) => !task.blockedBy.includes(b));
        const bad = depsProblem(tasks, task.id, added);
        if (bad) return fail(`Task #${task.id} not updated: ${bad}`);
        task.blockedBy.push(...added);
        if (added.length > 0) changes.push(`blockedBy +${added.map((a) => `#${a}`).join(', ')}`);
      }
      if (input.subject !== undefined && input.subject !== task.subject) {
        task.subject = input.subject;
        changes.push('subject');
      }
      if (input.description !== undefined && input.description !== task.description) {
        task.description = input.description;
        changes.push('description');
      }
      if (input.activeForm !== undefined) task.activeForm = input.activeForm;
      if (input.priority !== undefined && input.priority !== priorityOf(task)) {
        task.priority = input.priority;
        changes.push(`priority ${input.priority}`);
      }
      const owner = input.owner ?? (input.status === 'in_progress' && !task.owner ? ctx.agentId : undefined);
      if (input.status === 'in_progress' && before.status !== 'in_progress') {
        const claim = checkClaim(tasks, { ...task, blockedBy: task.blockedBy }, owner ?? task.owner ?? ctx.agentId);
        if (!claim.ok) return fail(`Task #${task.id} not started: ${claim.message}`);
      }
      if (owner !== undefined && owner !== task.owner) {
        task.owner = owner;
        changes.push(`owner ${owner}`);
      }
      if (input.status !== undefined && input.status !== task.status) {
        task.status = input.status;
        changes.push(`status ${before.status} → ${input.status}`);
      }
      if (changes.length === 0) return { content: `Task #${task.id} unchanged (it already looks like that).` };
      // Claude Code's TaskCompleted: a hook that blocks keeps the task open; its reason goes to the model.
      const veto = task.status === 'completed' && before.status !== 'completed' ? await taskHookVeto(ctx, 'TaskCompleted', task) : null;
      if (veto) return fail(`Task #${task.id} not completed: ${veto}`);
      task.updatedAt = ctx.clock.now();
      await writeTask(ctx.sandbox.fs, ctx.sandbox.workdir, task);
      const all = tasks.map((t) => (t.id === task.id ? task : t));
      ctx.report?.({ type: 'task.updated', task, changes, tasks: all });
      const board = boardOf(all);
      const unblocked =
        task.status === 'completed' ? board.ready.filter((t) => t.blockedBy.includes(task.id)).map((t) => `#${t.id}`) : [];
      const tail = unblocked.length > 0 ? ` Now unblocked: ${unblocked.join(', ')}.` : task.status === 'completed' ? ` Can start now: ${board.ready.map((t) => `#${t.id}`).join(', ') || 'none'}.` : '';
      return { content: `Updated task #${task.id}: ${changes.join('; ')}.${tail}` };
    },
  });
}

export function taskTools() {
  return [taskCreateTool(), taskListTool(), taskGetTool(), taskUpdateTool()];
}

/** The reason a TaskCreated / TaskCompleted hook refused this task, or null. */
async function taskHookVeto(ctx: ToolContext, event: 'TaskCreated' | 'TaskCompleted', task: Task): Promise<string | null> {
  const o = await ctx.hook?.({
    event,
    taskId: task.id,
    taskSubject: task.subject,
    ...(task.description ? { taskDescription: task.description } : {}),
    ...(ctx.agentId !== 'main' && ctx.agentId.startsWith('teammate-') ? { teammateName: ctx.agentId.slice('teammate-'.length), teamName: 'team' } : {}),
  });
  return o?.block ? `a ${event} hook refused it: ${o.reason ?? 'no reason given'}` : null;
}
