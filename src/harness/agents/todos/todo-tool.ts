/**
 * `todo_write`: the plan the agent keeps (Claude Code's TodoWrite, seed 003 s03). The model sends
 * the whole list every time; the tool checks it and answers. The tool itself keeps no state: the
 * loop reads the accepted list from the call (`todo-site.ts`), keeps it in `LoopState`, reports it
 * as `todo.updated`, and reminds the model of it when it goes stale.
 */
import { z } from 'zod';
import { buildTool, type Tool } from '../../tools/tool.ts';
import type { TodoItem } from './todo-item.ts';

export const TODO_TOOL_NAME = 'todo_write';

export const todoItemSchema = z
  .object({
    content: z.string().min(1).describe('What to do, in the imperative: "Run the tests"'),
    status: z.enum(['pending', 'in_progress', 'completed']),
    activeForm: z.string().min(1).describe('The same in the present continuous, shown while it is in progress: "Running the tests"'),
  })
  .strict();

export const todoInputSchema = z.object({ todos: z.array(todoItemSchema).max(100).describe('The whole updated list') }).strict();

export type { TodoItem };
// The schema and the leaf type must describe the same item, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.infer<typeof todoItemSchema>, TodoItem> = true;
void schemaMatchesType;
export type TodoInput = z.infer<typeof todoInputSchema>;

/** Claude Code's answer to a successful TodoWrite, so a model trained on it reads what it expects. */
export const TODO_ACCEPTED =
  'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. ' +
  'Please proceed with the current tasks if applicable.';

const DESCRIPTION = `Create and update a structured task list for the current work. Use it for tasks of three steps or more, or when the user gives several things to do; skip it for a single trivial step.

Send the whole list every time (it replaces the previous one). Each item has:
- content: what to do, in the imperative ("Run the tests")
- activeForm: the same in the present continuous ("Running the tests"), shown while it runs
- status: pending | in_progress | completed

Rules:
- Exactly one item is in_progress while you work (never more than one).
- Mark an item completed as soon as it is done, not in a batch at the end.
- Only mark completed what is really done: not if tests fail or the work is partial.`;

/** Why a list cannot be accepted, or null when it can. */
export function todoListProblem(todos: readonly TodoItem[]): string | null {
  const active = todos.map((t, i) => ({ t, i })).filter(({ t }) => t.status === 'in_progress');
  if (active.length > 1) {
    const which = active.map(({ t, i }) => `#${i + 1} "${t.content}"`).join(', ');
    return (
      `Only one todo may be in_progress at a time; ${active.length} are: ${which}. ` +
      'Nothing was changed. Keep the one you are working on in_progress, set the others to pending (or completed if they are done), and send the list again.'
    );
  }
  return null;
}

export function todoWriteTool(): Tool<TodoInput> {
  return buildTool({
    name: TODO_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: todoInputSchema,
    // It writes nothing outside the agent's own state, so it needs no permission and may run beside reads.
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    validateInput: async (input) => {
      const problem = todoListProblem(input.todos);
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    call: async () => ({ content: TODO_ACCEPTED }),
  });
}
