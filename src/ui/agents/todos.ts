/**
 * The todo lists as of any prefix of the event log: each agent's latest `todo.updated`, with who
 * it belongs to and when the harness last reminded it. Pure, so the panel shows the list as it
 * was at a stepped-back event simply by being given fewer events.
 */
import type { TraceEvent } from '../../harness/index.ts';
import type { TodoItem } from '../../harness/agents/index.ts';

export type TodoList = {
  agentId: string;
  /** `main`, or the subagent's type and task. */
  label: string;
  todos: TodoItem[];
  /** How many `todo_write` calls were accepted. */
  updates: number;
  /** Seq of the last update (in that agent's run). */
  updatedAtSeq: number;
  /** The last time the harness showed the list again, and why. */
  lastReminder?: { why: 'stale' | 'compaction'; turn: number };
};

export function deriveTodos(events: readonly TraceEvent[]): TodoList[] {
  const labels = new Map<string, string>([['main', 'main agent']]);
  const lists = new Map<string, TodoList>();
  for (const e of events) {
    if (e.type === 'subagent.start') labels.set(e.childAgentId, `${e.subagentType}: ${e.description}`);
    if (e.type === 'todo.updated') {
      const prev = lists.get(e.agentId);
      lists.set(e.agentId, {
        agentId: e.agentId,
        label: labels.get(e.agentId) ?? e.agentId,
        todos: e.todos,
        updates: (prev?.updates ?? 0) + 1,
        updatedAtSeq: e.seq,
        ...(prev?.lastReminder ? { lastReminder: prev.lastReminder } : {}),
      });
    }
    if (e.type === 'todo.reminder') {
      const l = lists.get(e.agentId);
      if (l) l.lastReminder = { why: e.why, turn: e.turn };
    }
  }
  // The main agent's list first, then subagents' in the order they started writing.
  return [...lists.values()].sort((a, b) => (a.agentId === 'main' ? -1 : b.agentId === 'main' ? 1 : 0));
}

export function progressOf(todos: readonly TodoItem[]): { done: number; total: number } {
  return { done: todos.filter((t) => t.status === 'completed').length, total: todos.length };
}
