/**
 * The explanations of the agent layer's events, spread into `EVENT_EXPLANATIONS`: memory injected
 * and extracted, the todo list, subagents, skills, the task graph, background jobs and steering.
 * Teams are in `team-explanations.ts`, workspaces and MCP in `workspace-mcp-explanations.ts`.
 */
import type { EventExplanations } from './event-explanations.ts';
import { list } from './list-text.ts';

type Keys =
  | 'memory.injected'
  | 'memory.extracted'
  | 'todo.updated'
  | 'todo.reminder'
  | 'subagent.start'
  | 'subagent.stop'
  | 'skills.available'
  | 'skill.loaded'
  | 'task.created'
  | 'task.updated'
  | 'task.listed'
  | 'background.notification'
  | 'background.stopped'
  | 'interrupt.received';

export const AGENT_EVENT_EXPLANATIONS: Pick<EventExplanations, Keys> = {
  'memory.injected': {
    means: 'Memory text was put in front of the first user message: CLAUDE.md files, then the saved memories that best match the prompt.',
    why: (e) => `${e.files.length} file(s) (${list(e.files.map((f) => f.path))}) and ${e.chosen.length} memor${e.chosen.length === 1 ? 'y' : 'ies'} chosen by the terms ${list(e.terms)}; ${e.left.length} left out; ~${e.tokens} tokens under a cap of ${e.cap}.`,
    otherwise: 'Without memory the model starts every session knowing nothing about the project.',
    lesson: 'memory-claude-md',
    terms: ['memory'],
  },
  'memory.extracted': {
    means: 'Facts from this exchange were saved to the memory store for later sessions.',
    why: (e) => `${e.added.length} saved via ${e.via}${e.added.length ? `: ${e.added.map((a) => `“${a.content}”`).join('; ')}` : ''}${e.duplicates.length ? `; ${e.duplicates.length} already known` : ''}.`,
    otherwise: 'Only what you ask to remember (“remember: …”) is kept; without it the next session would not know.',
    lesson: 'memory-claude-md',
    terms: ['memory', 'session'],
  },
  // agents: todos and subagents
  'todo.updated': {
    means: 'The agent’s plan changed: an accepted `todo_write` call replaced the whole todo list (the model always sends the full list).',
    why: (e) => {
      const n = (s: string) => e.todos.filter((t) => t.status === s).length;
      return `\`todo_write\` (${e.toolUseId}) set ${e.todos.length} item(s): ${n('completed')} done, ${n('in_progress')} in progress, ${n('pending')} pending (before: ${e.previous.length}). The loop keeps the list in its state; the tool itself keeps nothing.`;
    },
    otherwise: 'A list with two items in progress is refused with an error result and no event; without the tool the plan would live only in the model’s head, and no reminder could bring it back.',
    lesson: 'plan-with-todos',
    terms: ['turn'],
  },
  'todo.reminder': {
    means: 'The harness showed the model its own todo list again, as a `<system-reminder>` beside the tool results or right after a summary.',
    why: (e) =>
      e.why === 'stale'
        ? `${e.turnsSinceWrite} model calls went by without a \`todo_write\` while ${e.todos.filter((t) => t.status !== 'completed').length} item(s) were still open.`
        : 'A summary just replaced the history, so the list was re-attached after it (in the stored history and in this request).',
    otherwise: 'On a long task the model would drift from its plan, or lose it entirely at a compaction.',
    lesson: 'plan-with-todos',
    terms: ['compaction-layer'],
  },
  'subagent.start': {
    means: 'An `agent` call started a subagent: a fresh instance of the same loop that sees only its prompt — none of the parent’s history.',
    why: (e) =>
      e.resumed
        ? `An \`agent\` call with \`resume\` continues \`${e.childAgentId}\` — the same agent, not a new one: it goes on from its own ${e.resumed.priorMessages} earlier messages plus the parent's follow-up (run ${e.resumed.runs + 1}).`
        : `\`${e.subagentType}\` (“${e.description}”) runs as \`${e.childAgentId}\` at depth ${e.depth} on ${e.model}, with ${list(e.tools)}, mode \`${e.permissionMode}\` and at most ${e.maxTurns} model calls.${e.note ? ` ${e.note}` : ''} Every following event with that agent id belongs to it.`,
    otherwise: 'Without delegation, all of this searching would happen in the parent’s own context window and stay in its history.',
    lesson: 'delegate-parallel-subagents',
    terms: ['subagent'],
  },
  'subagent.stop': {
    means: 'A subagent’s loop ended. Its final text (plus a short usage trailer) is all its parent’s model receives.',
    why: (e) => `\`${e.childAgentId}\` ended \`${e.reason}\` after ${e.turns} turn(s), ${e.toolUses} tool use(s) and ${e.ms} ms; ${e.usage.input_tokens + e.usage.output_tokens} tokens stayed in its own context.`,
    otherwise: 'Had it not completed, the parent’s `agent` result would be an error saying why; its many steps never enter the parent’s history either way.',
    lesson: 'delegate-parallel-subagents',
    terms: ['subagent', 'exit'],
  },
  // agents: skills, tasks, background work, steering
  'skills.available': {
    means: 'The skills this run can load. Only their names and descriptions are in the prompt (inside the `skill` tool’s description); bodies load on demand.',
    why: (e) => `${e.skills.length} skill(s) listed for ${e.tokens} tokens per call${e.problems.length ? `; ${e.problems.length} SKILL.md file(s) could not be read and were skipped` : ''}.`,
    otherwise: 'Putting every skill’s body in the system prompt would cost its tokens on every call, used or not.',
    lesson: 'skill-on-demand',
    terms: ['prefix'],
  },
  'skill.loaded': {
    means: 'A skill’s body entered the conversation: the model asked for it with the `skill` tool, or the harness re-attached it after a summary.',
    why: (e) =>
      `\`${e.name}\` (${e.bodyTokens} tokens, against ${e.descriptionTokens} for its description) ${e.via === 'tool' ? 'was loaded by the model' : 'was re-attached after an auto-compact removed it'}${e.granted.length ? `; its allowed-tools granted ${list(e.granted)} for the rest of the run` : ''}.`,
    otherwise: 'The model would have only the one-line description to go on.',
    lesson: 'skill-on-demand',
    terms: ['compaction-layer'],
  },
  'task.created': {
    means: 'A task was added to the task graph, stored as a file in `.tasks/` so it outlives compaction, resume and fork.',
    why: (e) => `\`${e.task.id}\` “${e.task.subject}”${e.task.blockedBy.length ? `, blocked by ${list(e.task.blockedBy)}` : ''}; the graph now has ${e.tasks.length} task(s). Unknown dependencies and cycles would have been refused.`,
    otherwise: 'A plan kept only in the conversation is lost when the conversation is summarised.',
    lesson: 'task-graph',
    terms: [],
  },
  'task.updated': {
    means: 'A task in the graph changed (status, owner, wording or dependencies).',
    why: (e) => `\`${e.task.id}\` changed: ${e.changes.join(', ') || 'no fields'}; it is now \`${e.task.status}\`. A blocked task cannot be started — that change would have been refused.`,
    otherwise: 'Without the dependency check, work could start before what it depends on is done.',
    lesson: 'task-graph',
    terms: [],
  },
  'task.listed': {
    means: 'The model read the task board from `.tasks/`.',
    why: (e) => `${e.tasks.length} task(s); what can start now is computed from their dependencies, not guessed.`,
    otherwise: 'The model would have to remember the graph itself.',
    lesson: 'task-graph',
    terms: [],
  },
  'background.notification': {
    means: 'A background job finished; the harness put a `<bash-notification>` with its result before the next model call.',
    why: (e) => `\`${e.jobId}\` (\`${e.command}\`) ${e.status} after ${e.ms} ms${e.exitCode !== undefined ? ` with exit ${e.exitCode}` : ''}.`,
    otherwise: 'The model would have to poll with `bash_output` to find out.',
    lesson: 'background-tests',
    terms: ['safe-point'],
  },
  'background.stopped': {
    means: 'The run ended with background jobs still running; they were stopped with it, so no job outlives its run.',
    why: (e) => `The run ended \`${e.reason}\` with ${e.jobs.map((j) => `\`${j.id}\``).join(', ')} still running.`,
    otherwise: 'A forgotten job would keep running (and writing files) after the run it belonged to.',
    lesson: 'background-tests',
    terms: ['exit'],
  },
  'interrupt.received': {
    means: 'A message typed while the agent worked was delivered at the safe point: after the current tool results, before the next model call.',
    why: (e) => `From ${e.source === 'user' ? 'you' : e.source === 'file' ? 'the steer file' : 'the scenario'}, in front of model call ${e.beforeTurn}: “${e.text}”.`,
    otherwise: 'It is never injected mid-call or mid-tool; without steering you would have to stop the run and start again.',
    lesson: 'steering-mid-run',
    terms: ['safe-point'],
  },
  // isolated workspaces
};
