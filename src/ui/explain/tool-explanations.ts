/**
 * The explanations of tool calls and what gates them, spread into `EVENT_EXPLANATIONS`: a call
 * proposed, validated, run and its result; the permission pipeline; hooks; slash commands; the
 * sandbox's files changing, the settings read from it, and the person's terminal.
 */
import { hookRunLabel } from '../../harness/hooks/light.ts';
import type { TraceEvent } from '../../harness/index.ts';
import type { EventExplanations } from './event-explanations.ts';
import { modeSourceText } from './mode-source.ts';
import { explainHookEvent } from './hook-event-explanations.ts';
import { list } from './list-text.ts';

type Keys =
  | 'tool.proposed'
  | 'tool.validated'
  | 'tool.started'
  | 'tool.output'
  | 'tool.result'
  | 'permission.stage'
  | 'permission.prompt'
  | 'permission.decision'
  | 'hook.run'
  | 'hook.async_started'
  | 'slash.command'
  | 'permission.mode_changed'
  | 'hook.config_error'
  | 'sandbox.changed'
  | 'settings.read'
  | 'terminal.command';

export const TOOL_EVENT_EXPLANATIONS: Pick<EventExplanations, Keys> = {
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
