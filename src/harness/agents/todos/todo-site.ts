/**
 * The loop's todo call sites. The list is loop state (`LoopState.todos`), not tool state: the loop
 * takes it from each accepted `todo_write` call, counts the model calls since the last one, and
 * says when the list should be shown again — as a reminder when it went stale, and right after a
 * summary replaced the history (which would otherwise have lost it).
 */
import type { TextBlock, ToolResultBlock, ToolUseBlock } from '../../messages.ts';
import type { TraceEventBody } from '../../trace.ts';
import { TODO_TOOL_NAME, todoInputSchema, type TodoItem } from './todo-tool.ts';
import { hasOpenTodos, TODO_REMINDER_TURNS, todoReattached, todoReminder } from './todo-text.ts';

export type TodoState = { todos: TodoItem[]; turnsSinceTodoWrite: number };

/**
 * After a turn's tools ran: the list of the last accepted `todo_write` of the turn (an error result
 * changes nothing), the counter, and the `todo.updated` event when the list was written.
 */
export function todosAfterTools(
  prev: TodoState,
  calls: readonly ToolUseBlock[],
  results: readonly (ToolResultBlock | TextBlock)[],
): TodoState & { event?: TraceEventBody } {
  const ok = new Set(results.flatMap((r) => (r.type === 'tool_result' && !r.is_error ? [r.tool_use_id] : [])));
  const accepted = calls.filter((c) => c.name === TODO_TOOL_NAME && ok.has(c.id)).at(-1);
  const parsed = accepted ? todoInputSchema.safeParse(accepted.input) : null;
  if (!accepted || !parsed?.success) return { todos: prev.todos, turnsSinceTodoWrite: prev.turnsSinceTodoWrite + 1 };
  const todos = parsed.data.todos;
  return {
    todos,
    turnsSinceTodoWrite: 0,
    event: { type: 'todo.updated', toolUseId: accepted.id, todos, previous: prev.todos },
  };
}

/**
 * The reminder to add before the next model call, when the model has the tool, the list has open
 * items and it has not been written for {@link TODO_REMINDER_TURNS} model calls. Reset after it.
 */
export function todoReminderDue(s: TodoState, hasTool: boolean): { block: TextBlock; event: TraceEventBody } | null {
  if (!hasTool || !hasOpenTodos(s.todos) || s.turnsSinceTodoWrite < TODO_REMINDER_TURNS) return null;
  return {
    block: { type: 'text', text: todoReminder(s.todos, s.turnsSinceTodoWrite) },
    event: { type: 'todo.reminder', why: 'stale', turnsSinceWrite: s.turnsSinceTodoWrite, todos: s.todos },
  };
}

/** The note that puts the list back after a summary replaced the history (null when there is none). */
export function todoReattachment(s: TodoState, hasTool: boolean): { block: TextBlock; event: TraceEventBody } | null {
  if (!hasTool || s.todos.length === 0) return null;
  return {
    block: { type: 'text', text: todoReattached(s.todos) },
    event: { type: 'todo.reminder', why: 'compaction', turnsSinceWrite: s.turnsSinceTodoWrite, todos: s.todos },
  };
}
