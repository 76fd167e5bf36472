/**
 * The words the harness says about the todo list: the reminder when the model has not touched it
 * for a few turns, and the note re-attached after a compaction. Both carry the list as JSON between
 * `<todos>` tags so a later run (a follow-up, a resume) can pick the list up from the history.
 */
import type { Message } from '../../messages.ts';
import { blocksOf } from '../../messages.ts';
import { TODO_TOOL_NAME, todoInputSchema, type TodoItem } from './todo-tool.ts';

/** Model calls without a `todo_write` after which the list is shown again. */
export const TODO_REMINDER_TURNS = 3;

const MARK = { open: '<todos>', close: '</todos>' };

function listText(todos: readonly TodoItem[]): string {
  const lines = todos.map((t, i) => `${i + 1}. [${t.status}] ${t.content}`);
  return `${lines.join('\n')}\n${MARK.open}${JSON.stringify(todos)}${MARK.close}`;
}

export function todoReminder(todos: readonly TodoItem[], turns: number): string {
  return (
    `<system-reminder>\nThe todo list has not been updated for ${turns} turns. If you are working through it, ` +
    `update it with ${TODO_TOOL_NAME} (mark finished items completed, keep the one you are on in_progress). ` +
    `Ignore this if it does not apply. The current list:\n${listText(todos)}\n</system-reminder>`
  );
}

export function todoReattached(todos: readonly TodoItem[]): string {
  return (
    `<system-reminder>\nThe conversation was summarised to save context. Your todo list is unchanged; carry on from it ` +
    `and keep it up to date with ${TODO_TOOL_NAME}:\n${listText(todos)}\n</system-reminder>`
  );
}

/** Whether the list still has something to do (a finished list needs no reminder). */
export function hasOpenTodos(todos: readonly TodoItem[]): boolean {
  return todos.some((t) => t.status !== 'completed');
}

/**
 * The list as the history last left it: the latest accepted `todo_write` call, or the latest
 * reminder / re-attached note (after a summary the calls are gone). Empty when there is neither.
 */
export function todosFromHistory(messages: readonly Message[]): TodoItem[] {
  const failed = new Set<string>();
  for (const m of messages) for (const b of blocksOf(m)) if (b.type === 'tool_result' && b.is_error) failed.add(b.tool_use_id);
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = blocksOf(messages[i]!);
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j]!;
      if (b.type === 'tool_use' && b.name === TODO_TOOL_NAME && !failed.has(b.id)) {
        const parsed = todoInputSchema.safeParse(b.input);
        if (parsed.success) return parsed.data.todos;
      }
      if (b.type === 'text') {
        const at = b.text.lastIndexOf(MARK.open);
        const end = b.text.lastIndexOf(MARK.close);
        if (at >= 0 && end > at) {
          try {
            const parsed = todoInputSchema.safeParse({ todos: JSON.parse(b.text.slice(at + MARK.open.length, end)) });
            if (parsed.success) return parsed.data.todos;
          } catch {
            // Not our note (a user pasted the tag): keep looking further back.
          }
        }
      }
    }
  }
  return [];
}
