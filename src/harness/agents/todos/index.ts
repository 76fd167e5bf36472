export { todoWriteTool, todoListProblem, TODO_TOOL_NAME, TODO_ACCEPTED, type TodoItem, type TodoInput } from './todo-tool.ts';
export { todosFromHistory, todoReminder, todoReattached, TODO_REMINDER_TURNS } from './todo-text.ts';
export { todosAfterTools, todoReminderDue, todoReattachment, type TodoState } from './todo-site.ts';
