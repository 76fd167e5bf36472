/**
 * What every `TraceEvent` type means, why this one happened (read from its own data) and what
 * would have happened otherwise. Typed as a mapped type over `TraceEventType`, so an event type
 * added to the harness does not compile until it has an entry here: one place to add it.
 */
import { hookRunLabel } from '../../harness/hooks/index.ts';
import type { EventOf, TraceEvent, TraceEventType } from '../../harness/index.ts';
import type { GlossaryTerm } from './glossary.ts';
import { modeSourceText } from './mode-source.ts';
import { TEAM_EVENT_EXPLANATIONS } from './team-explanations.ts';
import { explainHookEvent } from './hook-event-explanations.ts';

export type EventExplanation<T extends TraceEventType> = {
  means: string;
  /** Why this event happened here, from its own fields (which rule, threshold, budget). */
  why: (e: EventOf<T>) => string;
  otherwise: string;
  lesson: string;
  terms: GlossaryTerm[];
};

export type EventExplanations = { [T in TraceEventType]: EventExplanation<T> };

const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : 'none');

/** What git recorded for a git-backed workspace's merge: the merge commit, or the merge in progress. */
function mergeInGit(git: EventOf<'workspace.merge'>['git']): string {
  if (!git) return '';
  if (git.error) return ` Git could not record it (${git.error}); the files were merged all the same.`;
  if (git.commit) return ` In git: merge commit \`${git.commit.slice(0, 7)}\` on the project's branch, with \`${git.branch}\`'s tip as its second parent.`;
  return ` In git: no merge commit yet — the merge of \`${git.branch}\` is in progress (MERGE_HEAD), and the \`git commit\` made after the conflicts are resolved concludes it.`;
}

export const EVENT_EXPLANATIONS: EventExplanations = {
  ...TEAM_EVENT_EXPLANATIONS,
  'run.start': {
    means: 'A run began: one prompt, sent through the loop until an exit.',
    why: (e) => `You sent a prompt. The run uses ${e.modelClient} (${e.model}) on the ${e.sandbox} sandbox, may call ${list(e.tools)}, and stops after at most ${e.maxTurns} model calls.`,
    otherwise: 'Nothing runs until a prompt is sent.',
    lesson: 'parallel-exploration',
    terms: ['turn', 'budget'],
  },
  'turn.start': {
    means: 'The loop starts a new turn: it will assemble the context and call the model.',
    why: (e) => `The previous transition went round again, so turn ${e.turn} starts. Retries of a failed call stay in their turn and do not start a new one.`,
    otherwise: 'Had the previous transition been an exit, the run would have ended instead.',
    lesson: 'parallel-exploration',
    terms: ['turn', 'transition'],
  },
  'permission.prefilter': {
    means: 'Tools named by a bare deny rule were removed from the tool list before the model saw it.',
    why: (e) => `Hidden: ${e.hidden.map((h) => `\`${h.name}\` by \`${h.rule}\``).join(', ')}. The model sees only ${list(e.visible)}.`,
    otherwise: 'Without the bare deny the model would see the tool, call it, and be refused at the rules stage — a wasted turn.',
    lesson: 'tool-hiding',
    terms: ['rule', 'permission-stage'],
  },
  'tools.changed': {
    means: 'The tool pool changed while the run worked — you saved, edited or deleted a custom tool, or the model loaded a deferred tool with tool_search — so the harness rebuilt the tool list before this request. The same prefilter, permission pipeline and hooks judge the new tools from this call on.',
    why: (e) =>
      `${[e.loaded?.length ? `loaded ${list(e.loaded)} (${e.why ?? 'tool_search'}), appended at the end of the list` : '',e.added.length ? `added ${list(e.added)}` : '', e.changed.length ? `changed ${list(e.changed)}` : '', e.removed.length ? `removed ${list(e.removed)}` : ''].filter(Boolean).join('; ') || 'reordered'}.${e.hidden?.length ? ` Hidden by a bare deny: ${e.hidden.map((h) => `\`${h.name}\` by \`${h.rule}\``).join(', ')}.` : ''} The next request offers ${list(e.visible)}.`,
    otherwise: 'Without it a tool saved mid-run would wait for the next run, and the model could not call what you just wrote. The price: the tools lead the cached prefix, so this request writes the cache afresh.',
    lesson: 'custom-tool',
    terms: ['rule', 'permission-stage'],
  },
  transition: {
    means: 'The loop decided how this turn ends: go round again or stop. The reason says which site decided.',
    why: (e) => `Reason \`${e.reason}\`${e.detail ? ` — ${e.detail}` : ''}.`,
    otherwise: 'Every turn ends in exactly one transition; see the reason below for the alternative.',
    lesson: 'lesson-follow-ups',
    terms: ['transition', 'continue-site', 'exit'],
  },
  'message.appended': {
    means: 'A message entered the stored history — the conversation the next request is built from.',
    why: (e) =>
      ({
        user: `Your prompt became message #${e.index}.`,
        assistant: `The model’s reply became message #${e.index}.`,
        tool_results: `The results of the tool calls went into message #${e.index}, as the user side of the exchange (the API requires a result for every call).`,
        meta: `The harness added an instruction of its own as message #${e.index} (a recovery or retry nudge).`,
        synthetic: `The harness wrote results itself into message #${e.index} (for example “interrupted”), so every call still has a result.`,
      })[e.origin],
    otherwise: 'Messages are never sent twice: without this append the next request would not contain it.',
    lesson: 'fix-a-bug',
    terms: ['tool-use-id'],
  },
  'run.end': {
    means: 'The run is over. It carries the exit reason, the turns used and the token usage summed over the run.',
    why: (e) => `Ended \`${e.reason}\` after ${e.turns} turn(s), ${e.usage.input_tokens} input and ${e.usage.output_tokens} output tokens${e.error ? `: ${e.error.message}` : ''}.`,
    otherwise: 'A run ends exactly once, right after its exit transition.',
    lesson: 'fix-a-bug',
    terms: ['exit'],
  },
  'history.rewritten': {
    means: 'A compaction layer changed the stored history for good (not just what this request shows).',
    why: (e) => `${e.layers.length ? list(e.layers) : 'The context layers'} went from ${e.messagesBefore} to ${e.messages.length} stored messages.`,
    otherwise: 'The history would keep growing until the request no longer fits the context window.',
    lesson: 'auto-compact',
    terms: ['compaction-layer', 'projection'],
  },
  'context.assembled': {
    means: 'The request for this turn was built: system prompt, tool list, memory and the (projected) messages, with a token estimate per part.',
    why: (e) =>
      `About ${e.total} tokens (system ${e.parts.system}, tools ${e.parts.tools}, messages ${e.parts.messages}) over ${e.messageCount} messages${e.window ? ` of a ${e.window}-token window` : ''}${e.threshold ? `; auto-compact starts at ${e.threshold.tokens} (${Math.round(e.threshold.fraction * 100)}%)` : ''}.`,
    otherwise: 'Every model call is preceded by one; it is what the compaction layers measure against.',
    lesson: 'budget-reduction',
    terms: ['compaction-layer', 'projection'],
  },
  'context.counted': {
    means: 'The API counted the request’s input tokens (`count_tokens`), beside our chars/4 estimate.',
    why: (e) => (e.actual === null ? `The count failed: ${e.error ?? 'no reason given'}.` : `Estimate ${e.estimate}, actual ${e.actual}${e.relativeError !== undefined ? ` (off by ${Math.round(e.relativeError * 100)}%)` : ''}.`),
    otherwise: 'Only the estimate would be shown; exact counts are asked for in Settings and need a live model.',
    lesson: 'budget-reduction',
    terms: ['compaction-layer'],
  },
  'compaction.layer': {
    means: 'One of the five compaction layers ran before the model call; it either fired (changed something) or stayed idle.',
    why: (e) => `${e.layer} ${e.fired ? 'fired' : 'stayed idle'}: ${e.reason} (${e.tokensBefore} → ${e.tokensAfter} tokens${e.committed ? ', committed to the history' : ''}).`,
    otherwise: 'An idle layer leaves the request as it is; a fired one made it smaller so it fits (or stays cheap).',
    lesson: 'budget-reduction',
    terms: ['compaction-layer', 'projection', 'prefix'],
  },
  'cache.stats': {
    means: 'How much of this request the prompt cache served: read from cache, written to it, or not cached.',
    why: (e) => `Read ${e.read}, written ${e.creation}, uncached ${e.uncached}: a ${Math.round(e.hitRate * 100)}% hit rate.${e.breakDiff ? ` The prefix broke: ${e.breakDiff.detail}.` : ' The request only appended to the previous one.'}`,
    otherwise: 'With an unchanged prefix every turn reads the earlier turns from the cache; a break pays for them again.',
    lesson: 'cache-breakage',
    terms: ['prefix'],
  },
  'model.request': {
    means: 'The exact request sent to the model: model, max tokens, system prompt, tools and messages.',
    why: (e) => `${e.request.messages.length} message(s) to ${e.request.model}, attempt ${e.attempt}${e.attempt > 1 ? ' (a retry of the same call)' : ''}.`,
    otherwise: 'This is the only thing the model ever sees; anything not in it does not exist for the model.',
    lesson: 'lesson-follow-ups',
    terms: ['turn', 'prefix'],
  },
  'model.delta': {
    means: 'A piece of the streamed reply: text, thinking, or part of a tool call’s input JSON.',
    why: (e) => `Block ${e.index} grew by a ${e.delta.kind} chunk. Tool input arrives as partial JSON and is parsed only when the block ends.`,
    otherwise: 'Without streaming you would see nothing until the whole reply was done.',
    lesson: 'parallel-exploration',
    terms: ['turn'],
  },
  'model.response': {
    means: 'The reply is complete, with its stop reason and token usage.',
    why: (e) => `Stop reason \`${e.stopReason ?? 'none'}\`, ${e.usage.input_tokens} in / ${e.usage.output_tokens} out. ${e.stopReason === 'tool_use' ? 'The model asked for tools, so the tool site runs next.' : e.stopReason === 'max_tokens' ? 'It was cut off at the output limit: max-tokens recovery is next.' : 'No tools were asked for.'}`,
    otherwise: 'The stop reason decides the transition: `tool_use` leads to `next_turn`, `end_turn` to the stop site.',
    lesson: 'max-tokens-recovery',
    terms: ['transition'],
  },
  'model.error': {
    means: 'The model call failed.',
    why: (e) => `${e.error.kind}${e.error.status ? ` (HTTP ${e.error.status})` : ''}, attempt ${e.attempt}: ${e.error.message}${e.retryInMs !== undefined ? ` Retrying in ${Math.round(e.retryInMs)} ms.` : e.error.retryable ? '' : ' Not retryable.'}`,
    otherwise: 'Retryable errors are retried within the budget; “prompt too long” triggers one reactive compact; anything else ends the run.',
    lesson: 'flaky-model',
    terms: ['budget', 'continue-site'],
  },
  'replay.diverged': {
    means: 'The model is a replay, and a tool result it is about to be shown is not the one the recording saw. The recorded replies from here on were written for another outcome.',
    why: (e) =>
      `\`${e.name}\` (${e.toolUseId}, from turn ${e.recordedTurn} of the script) ${
        e.what === 'is_error'
          ? e.actual.isError
            ? 'failed here, but succeeded in the recording'
            : 'succeeded here, but failed in the recording'
          : 'returned different text'
      }: a rule, a hook, a mode or a file is not what it was when the replies were recorded. The scripted model cannot notice: it says what the recording said.`,
    otherwise: 'Had the result matched (after ignoring ids, timings and whitespace), the replay would still be faithful: the replies answer what really happened.',
    lesson: 'replay-diverges',
    terms: ['replay', 'tool-use-id'],
  },
  'tool.proposed': {
    means: 'The model’s reply contains a tool call. Nothing has run yet: it must pass validation and the permission pipeline first.',
    why: (e) => `The model asked for \`${e.name}\` (${e.toolUseId}).`,
    otherwise: 'A reply without tool calls goes to the stop site instead.',
    lesson: 'parallel-exploration',
    terms: ['tool-use-id', 'permission-stage'],
  },
  'tool.validated': {
    means: 'The call’s input was checked against the tool’s schema and its own validation.',
    why: (e) => (e.ok ? `\`${e.name}\` input is valid.` : `\`${e.name}\` input is invalid: ${e.error ?? 'no detail'}. The call is denied at the validate stage and the error goes back to the model.`),
    otherwise: 'An invalid call never runs; the model gets the error as the result and can fix the call.',
    lesson: 'flaky-model',
    terms: ['permission-stage'],
  },
  'tool.started': {
    means: 'The call passed the pipeline and runs now.',
    why: (e) => `\`${e.name}\` runs${e.concurrent ? ' concurrently with the other read-only calls of this reply' : ' on its own (it is not read-only, so it waits for the calls before it)'}.`,
    otherwise: 'A denied call never starts; its result is the reason it was denied.',
    lesson: 'parallel-exploration',
    terms: ['tool-use-id'],
  },
  'tool.output': {
    means: 'Output streamed by a running tool (stdout or stderr), shown as it arrives.',
    why: (e) => `${e.chunk.stream} of ${e.toolUseId}.`,
    otherwise: 'The final result holds the same text; the stream only shows it earlier.',
    lesson: 'fix-a-bug',
    terms: ['tool-use-id'],
  },
  'tool.result': {
    means: 'The tool finished; its result will go back to the model in the next user message.',
    why: (e) => `\`${e.name}\` ${e.isError ? 'failed (an error result — the model sees it and can react)' : 'succeeded'} with ${e.content.length} characters in ${Math.round(e.ms)} ms.`,
    otherwise: 'Every call gets a result, even a denied or interrupted one: the API rejects a history where a call has none.',
    lesson: 'fix-a-bug',
    terms: ['tool-use-id'],
  },
  'permission.stage': {
    means: 'One stage of the permission pipeline ran for a tool call.',
    why: (e) => `\`${e.stage}\` said ${e.decision} for \`${e.name}\`: ${e.reason}${e.decidedBy ? ` (decided by ${e.decidedBy.kind} \`${e.decidedBy.text}\`)` : ''}.`,
    otherwise: 'A stage that passes hands the call to the next; the first that allows or denies ends the pipeline.',
    lesson: 'deny-beats-allow',
    terms: ['permission-stage', 'rule', 'permission-mode'],
  },
  'permission.prompt': {
    means: 'No rule or mode settled the call, so a person is asked.',
    why: (e) => `\`${e.name}\` needs approval: ${e.reason}.${e.suggestions.length ? ` “Allow for this session” would add ${list(e.suggestions)}.` : ''}`,
    otherwise: 'With an allow rule or a permissive mode the call would have been allowed without asking; headless runs deny instead.',
    lesson: 'ask-permission',
    terms: ['permission-stage', 'permission-mode', 'trust'],
  },
  'permission.decision': {
    means: 'The pipeline’s final word on a tool call: the audit record of who decided.',
    why: (e) => `\`${e.name}\` ${e.decision === 'allow' ? 'allowed' : 'denied'} at \`${e.stage}\` by ${e.decidedBy.kind} \`${e.decidedBy.text}\`: ${e.reason}.`,
    otherwise: 'Deny-first: had nothing allowed it, the call would have been asked about or denied.',
    lesson: 'deny-beats-allow',
    terms: ['permission-stage', 'rule'],
  },
  'hook.run': {
    means: 'A configured hook ran for a hook event, got the event as JSON, and answered.',
    why: (e) => `${explainHookEvent(e.event)} This ${e.event} hook \`${hookRunLabel(e.hook)}\`${e.matcher ? ` (matcher \`${e.matcher}\`)` : ''} ${hookOutcomeText(e)}${e.decision ? ` → ${e.decision}` : ''}${e.reason ? `: ${e.reason}` : ''}.${e.background ? ` It ran in the background (${e.background.id}) and could not block anything${e.background.rewake ? '; its exit 2 woke the agent' : ''}.` : ''}`,
    otherwise: 'Without the hook, the event would go on as the rules and mode say. Exit 2 blocks; a crash or timeout lets the agent continue.',
    lesson: 'pretooluse-hook-blocks',
    terms: ['hook-event'],
  },
  'hook.async_started': {
    means: 'An `async: true` (or `asyncRewake: true`) command hook started in the background. The event went on without waiting: the hook cannot block, deny or stop anything.',
    why: (e) => `This ${e.event} hook \`${hookRunLabel(e.hook)}\`${e.matcher ? ` (matcher \`${e.matcher}\`)` : ''} runs as background job ${e.id}. When it ends, its \`systemMessage\` / \`additionalContext\` reach the model before the next model call${e.rewake ? '; as an `asyncRewake` hook, an exit 2 wakes the agent even after the model stopped' : ''}.`,
    otherwise: 'The loop would wait for a slow hook (tests, a linter) before it goes on, as it does for every other hook.',
    lesson: 'hook-events-tour',
    terms: ['hook-event'],
  },
  'slash.command': {
    means: 'The prompt was a slash command, as in Claude Code\'s prompt box or `-p`: a built-in runs in the harness instead of reaching the model; a custom one (`.claude/commands/*.md`) expands into the prompt the model sees.',
    why: (e) => `\`/${e.name}${e.args ? ` ${e.args}` : ''}\`${slashWhy(e)}.`,
    otherwise: 'Without it, compaction waits for the auto-compact threshold, panels open only by hand, and the words would reach the model as a prompt.',
    lesson: 'hook-events-tour',
    terms: ['hook-event'],
  },
  'permission.mode_changed': {
    means: 'The run left one permission mode for another: in plan mode the agent presented its plan with `exit_plan_mode`, and it was approved (by you, a PermissionRequest hook or headless policy).',
    why: (e) => `From \`${e.from}\` to \`${e.to}\`: ${e.why}. Every later call of this run is judged in \`${e.to}\` mode.`,
    otherwise: 'Rejected, the agent stays in plan mode: reads run, edits are refused, and it revises the plan.',
    lesson: 'plan-mode',
    terms: ['permission-mode'],
  },
  'hook.config_error': {
    means: 'A hooks setting cannot work (for example a matcher that is not a valid regex); it is reported once and skipped.',
    why: (e) => `${e.event}, matcher ${JSON.stringify(e.matcher)}: ${e.message}`,
    otherwise: 'A silently ignored hook would look like a hook that allowed everything.',
    lesson: 'pretooluse-hook-blocks',
    terms: ['hook-event'],
  },
  'sandbox.changed': {
    means: 'Files in the sandbox changed — by the agent’s tools, or by you in the Files panel — and the files pane refreshes them.',
    why: (e) =>
      e.origin === 'user'
        ? `You changed ${list(e.paths)} yourself. It is recorded with a snapshot of the files, so the agent’s next read, step-back, replays and forks all see what you left.`
        : `Changed by the run: ${list(e.paths)}.`,
    otherwise: 'Without the record, the agent’s next read would return text nothing in the log explains.',
    lesson: 'fix-a-bug',
    terms: [],
  },
  // devkit
  'settings.read': {
    means: 'At run start the harness read the sandbox’s `.claude/settings.json` (project) and `.claude/settings.local.json` (local), as Claude Code does, and merged them with the other scopes: local over project over the scenario.',
    why: (e) =>
      `${e.files.map((f) => (f.ok ? `${f.path} (${f.scope}: ${f.rules} rule(s), ${f.hooks} hook group(s))` : `${f.path} left out — line ${f.problems[0]?.line ?? 1}: ${f.problems[0]?.message ?? 'not valid'}`)).join('; ')}. In force, highest first: ${list(e.scopes)}.${e.mode ? ` Mode \`${e.mode}\`, from ${modeSourceText(e.modeFrom)}.` : ''}${e.trusted ? '' : ' Not trusted: their hooks, allow rules and modes do not apply; deny and ask rules do.'}`,
    otherwise: 'Without it, a project’s own settings would apply in Claude Code but not here, and the same folder would behave differently headless and in the page.',
    lesson: 'layered-claude-settings',
    terms: [],
  },
  'terminal.command': {
    means: 'You ran a command in the terminal on the live sandbox. It is your own: no permission rule or hook judges it, and files it changed show as a `sandbox.changed` event of origin user.',
    why: (e) => `\`${e.command}\` ${e.interrupted ? 'was stopped with Ctrl-C' : `exited ${e.exitCode}`} after ${e.ms} ms.`,
    otherwise: 'Unrecorded, a change you made by hand would look like something the agent did, or like nothing at all.',
    lesson: 'layered-claude-settings',
    terms: [],
  },
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
  'workspace.created': {
    means: 'An agent got its own copy of the working tree: its file tools and bash see the copy, and nothing it writes reaches the shared files until it is merged back.',
    why: (e) =>
      e.git
        ? `\`${e.forAgentId}\` was started with \`isolation: worktree\` in a git project, so \`${e.root}\` is a linked worktree on the new branch \`${e.git.branch}\`, checked out from HEAD (\`${e.git.base.slice(0, 7)}\`, ${e.files} file(s)). That commit is the merge base every later diff and overlap check is measured against.`
        : `\`${e.forAgentId}\` was started with \`isolation: worktree\`, so ${e.files} file(s) were copied to \`${e.root}\`. That copy is the snapshot every later diff and overlap check is measured against.`,
    otherwise: 'Without isolation, parallel agents write the same files directly, and the last write wins without anyone noticing.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace', 'subagent'],
  },
  'workspace.changes': {
    means: 'The agent finished; these are the files it added, changed or deleted in its copy, each as a diff against the snapshot.',
    why: (e) =>
      (e.changes.length ? `\`${e.forAgentId}\` changed ${list(e.changes.map((c) => `${c.path} (${c.kind}, +${c.addedLines} −${c.removedLines})`))}.` : `\`${e.forAgentId}\` changed nothing, so there is nothing to merge.`) +
      (e.git?.commit ? ` They are committed on \`${e.git.branch}\` as \`${e.git.commit.slice(0, 7)}\`, authored by the agent.` : ''),
    otherwise: 'Without a diff against the snapshot, nobody could tell what the agent did from what others did meanwhile.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  'workspace.merge': {
    means: 'The agent’s changes were offered back: files nobody else touched were written to the shared tree; files that overlap with someone else’s change were refused.',
    why: (e) => `Written: ${list(e.applied.map((a) => (a.how === 'auto_merged' ? `${a.path} (merged three-way)` : a.path)))}. Refused as conflicts: ${list(e.conflicts)}. A file is refused when the shared copy changed since the snapshot and the two changes touch the same lines.${mergeInGit(e.git)}`,
    otherwise: 'A plain copy-back would overwrite whatever another agent had merged first.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  'workspace.conflict': {
    means: 'Overlap detection: a file changed by this agent was also changed by someone else since its copy was taken, and the changes touch the same lines. It was not overwritten; someone must choose.',
    why: (e) => `\`${e.conflict.path}\` ${e.mergedBy ? `was already merged by \`${e.mergedBy}\`` : 'changed in the shared tree'} after \`${e.forAgentId}\` took its copy (${e.conflict.reason === 'both_changed' ? 'two agents changed it' : 'the shared copy moved on'}). Resolve it in the merge view: take this agent’s version, keep the current file, or edit; the lead agent is told the same in its tool result.`,
    otherwise: 'Without overlap detection, the second merge would silently replace the first agent’s work.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  // MCP (src/harness/mcp/)
  'mcp.connect': {
    means: 'An MCP server finished the initialize handshake; its tools can now join the tool list.',
    why: (e) => `\`${e.server}\` answered over ${e.transport === 'in-page' ? 'messages to the in-page server (it runs in the isolated user-code runtime)' : `${e.transport === 'sse' ? 'SSE (the Streamable HTTP attempt was refused)' : 'Streamable HTTP'}${e.url ? ` at ${e.url}` : ''}`} in ${e.ms} ms${e.serverName ? `; it calls itself ${e.serverName}${e.serverVersion ? ` ${e.serverVersion}` : ''}` : ''}.`,
    otherwise: 'A server that does not answer is reported as `mcp.error` and its tools are absent; the run goes on without them.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp'],
  },
  'mcp.tools': {
    means: 'A server listed its tools (`tools/list`); each becomes `mcp__<server>__<tool>` in the tool list, next to the built-ins.',
    why: (e) => `\`${e.server}\` offers ${list(e.tools.map((t) => t.name))}${e.skipped.length ? `; left out: ${e.skipped.map((s) => `\`${s.tool}\` (${s.reason})`).join(', ')}` : ''}. Rules and hook matchers name them like any tool: \`mcp__${e.server}__*\` covers all of them.`,
    otherwise: 'Without the prefix two servers (or a server and a built-in) could offer tools of the same name.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'rule'],
  },
  'mcp.call': {
    means: 'The harness sent one `tools/call` to an MCP server — after validation, hooks and permissions, exactly as for a built-in — and got this back.',
    why: (e) => `\`${e.name}\` called \`${e.tool}\` on \`${e.server}\` (${e.ms} ms): ${e.ok ? (e.isError ? 'the server answered with an error result, which the model reads' : 'the result goes back to the model as the tool_result') : 'no usable answer, so the model gets an error result naming the failure'}. The raw JSON-RPC request and response are in the MCP panel.`,
    otherwise: 'A denied call never reaches the server: a `permission.decision` deny ends it before this point.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'tool-use-id'],
  },
  'mcp.error': {
    means: 'An MCP server could not be used for something: it is down, timed out, answered garbage, is not approved, or its config is wrong.',
    why: (e) => `\`${e.server}\` (${e.phase}${e.tool ? `, \`${e.tool}\`` : ''}): ${e.message}`,
    otherwise: 'The run continues: a server that failed has no tools in the list, and a call that failed is an error result the model can react to.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'trust'],
  },
  // money
  'model.fallback': {
    means: 'The model failed in a way another model may not (overloaded after every retry, or not found), so the run switched to its fallback model and repeats the call.',
    why: (e) => `\`${e.from}\` failed with ${e.error.kind}; the same turn goes to \`${e.to}\` from now on.`,
    otherwise: 'The run would end with `model_error`.',
    lesson: 'flaky-model',
    terms: ['budget', 'turn'],
  },
  'budget.exceeded': {
    means: 'The run has a dollar ceiling, and the next call would cross it: spent so far plus the next request\'s input tokens at the uncached price.',
    why: (e) => `Spent $${e.spentUsd.toFixed(4)} of $${e.maxUsd}; the next call (~${e.nextInputTokens} input tokens on ${e.model}) is at least $${e.nextEstimateUsd.toFixed(4)}.`,
    otherwise: 'The call would be made and the run could spend past its ceiling.',
    lesson: 'budget-stop',
    terms: ['budget', 'exit'],
  },
};

/** What one kind of slash command did (see src/harness/loop/slash-site.ts). */
function slashWhy(e: Extract<TraceEvent, { type: 'slash.command' }>): string {
  if (e.kind === 'unknown') return ': no command has this name, so nothing ran and nothing was sent';
  if (e.kind === 'untrusted') return `: it comes from ${e.path ?? 'a file'} of a document you have not trusted, so it did not run`;
  if (e.kind === 'custom') return `: ${e.path ?? 'its file'} became the prompt (UserPromptExpansion fired first)${e.allowedTools?.length ? `; ${e.allowedTools.join(', ')} allowed without asking for this prompt only` : ''}`;
  if (e.name === 'compact') return ': the history is summarised now (PreCompact and PostCompact hooks see trigger `manual`' + (e.args ? ', and the instructions in `custom_instructions`' : '') + ')';
  if (e.name === 'clear') return ': the session ends (SessionEnd `clear`), a new one starts (SessionStart `clear`) with an empty conversation';
  return e.panel ? `: shows the ${e.panel} panel; headless it prints the same information` : '';
}

/** How a hook ended, in words: an http hook's status or refusal, else its exit code. */
function hookOutcomeText(e: Extract<TraceEvent, { type: 'hook.run' }>): string {
  if (e.refused) return `was not called — ${e.stderr}`;
  if (e.hook.type === 'http') return e.status !== undefined ? `answered HTTP ${e.status}` : `got no answer${e.timedOut ? ' (timed out)' : ''}`;
  return `exited ${e.exitCode}${e.timedOut ? ' after timing out' : ''}`;
}
