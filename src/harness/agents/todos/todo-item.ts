/**
 * One item of the agent's todo list (Claude Code's TodoWrite shape). A leaf module: `trace.ts`
 * carries todo lists in its events, and importing the tool (which imports the tool system) from
 * there would make the event union part of an import cycle. `todo-tool.ts` checks its zod schema
 * against this type.
 */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export type TodoItem = { content: string; status: TodoStatus; activeForm: string };
