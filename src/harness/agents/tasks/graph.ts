/**
 * The task graph's rules, as pure functions over a list of tasks: which dependencies are unknown,
 * whether an edge would close a cycle, what can start now, and who may take a task. Everything
 * that decides ownership lives here (a later teams layer claims tasks through `checkClaim`).
 */
import { byCodeUnits } from '../../util/order.ts';

export type TaskStatus = 'pending' | 'in_progress' | 'completed';

/** Claude Code's own priority words (its TodoWrite items carried `priority: high | medium | low`). */
export const TASK_PRIORITIES = ['high', 'medium', 'low'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
/** What a task without a priority counts as (task files written before priorities existed). */
export const DEFAULT_PRIORITY: TaskPriority = 'medium';

export type Task = {
  /** `1`, `2`, … in creation order. */
  id: string;
  subject: string;
  description: string;
  status: TaskStatus;
  /** Which ready task is claimed first; absent means `medium`. */
  priority?: TaskPriority;
  /** Who works on it (an agent id, `main` by default once started); absent while unclaimed. */
  owner?: string;
  /** Ids of tasks that must be completed before this one can start. */
  blockedBy: string[];
  /** Present-tense label while in progress, e.g. "Writing the parser tests". */
  activeForm?: string;
  createdAt: number;
  updatedAt: number;
};

export type BoardTask = Task & {
  /** Blockers not yet completed; empty when the task could start. */
  openBlockers: string[];
  /** Tasks waiting for this one. */
  blocks: string[];
  /** Pending, and every blocker completed. */
  ready: boolean;
};

export type Board = { tasks: BoardTask[]; pending: BoardTask[]; inProgress: BoardTask[]; completed: BoardTask[]; ready: BoardTask[]; blocked: BoardTask[] };

export function unknownDependencies(tasks: readonly Task[], ids: readonly string[]): string[] {
  const known = new Set(tasks.map((t) => t.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * The cycle `task → …blockers… → task` that adding `blockedBy` to `taskId` would close, as a path of
 * ids (first and last equal), or null when there is none.
 */
export function cycleVia(tasks: readonly Task[], taskId: string, blockedBy: readonly string[]): string[] | null {
  const edges = new Map(tasks.map((t) => [t.id, t.id === taskId ? [...t.blockedBy, ...blockedBy] : t.blockedBy]));
  if (!edges.has(taskId)) edges.set(taskId, [...blockedBy]);
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | null => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return null;
    onPath.add(id);
    path.push(id);
    for (const next of edges.get(id) ?? []) {
      const c = visit(next);
      if (c) return c;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return null;
  };
  return visit(taskId);
}

export function boardOf(tasks: readonly Task[]): Board {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const sorted = [...tasks].sort(compareIds);
  const board = sorted.map((t): BoardTask => {
    const openBlockers = t.blockedBy.filter((b) => byId.get(b)?.status !== 'completed');
    return { ...t, openBlockers, blocks: sorted.filter((o) => o.blockedBy.includes(t.id)).map((o) => o.id), ready: t.status === 'pending' && openBlockers.length === 0 };
  });
  return {
    tasks: board,
    pending: board.filter((t) => t.status === 'pending'),
    inProgress: board.filter((t) => t.status === 'in_progress'),
    completed: board.filter((t) => t.status === 'completed'),
    ready: claimOrder(board.filter((t) => t.ready)),
    blocked: board.filter((t) => t.status === 'pending' && !t.ready),
  };
}

export function priorityOf(task: Pick<Task, 'priority'>): TaskPriority {
  return task.priority && TASK_PRIORITIES.includes(task.priority) ? task.priority : DEFAULT_PRIORITY;
}

/** Numeric ids compare as numbers ("2" before "10"); anything else by text. */
function compareIds(a: Pick<Task, 'id'>, b: Pick<Task, 'id'>): number {
  return Number(a.id) - Number(b.id) || byCodeUnits(a.id, b.id);
}

/**
 * The order in which tasks are taken: highest priority first, ties by id (the older task first).
 * Claiming and the "can start now" lists both use it, so what the model and the board show is
 * what a claimer will take.
 */
export function claimOrder<T extends Task>(tasks: readonly T[]): T[] {
  const rank = (t: Task) => TASK_PRIORITIES.indexOf(priorityOf(t));
  return [...tasks].sort((a, b) => rank(a) - rank(b) || compareIds(a, b));
}

/**
 * Whether `agent` may start (or take over) `task`: refused while a blocker is open, or when
 * another agent already owns it and is working on it. The one place ownership is decided.
 */
export function checkClaim(tasks: readonly Task[], task: Task, agent: string): { ok: true } | { ok: false; message: string } {
  const open = boardOf(tasks).tasks.find((t) => t.id === task.id)?.openBlockers ?? [];
  if (open.length > 0) {
    return { ok: false, message: `Task ${task.id} is blocked by ${open.map((id) => `#${id}`).join(', ')}, which ${open.length === 1 ? 'is' : 'are'} not completed yet. Finish ${open.length === 1 ? 'it' : 'them'} first, or pick a task that can start now (task_list shows them).` };
  }
  if (task.owner && task.owner !== agent && task.status === 'in_progress') {
    return { ok: false, message: `Task ${task.id} is already in progress by ${task.owner}. Pick another task.` };
  }
  return { ok: true };
}
