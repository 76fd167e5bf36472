/**
 * When each hook event fires here and what its hooks can do — one line per event of Claude Code's
 * hooks reference. Typed over `HookEventName`, so an event added to the harness needs a line here.
 * Shown by *Explain* on a `hook.run` row and in the hooks timeline's tooltip.
 */
import { HOOK_EVENTS_NOT_FIRED, isHookEventName, type HookEventName } from '../../harness/hooks/light.ts';

export const HOOK_EVENT_EXPLANATIONS: Record<HookEventName, string> = {
  Setup: 'Claude Code runs it for `--init` / `--maintenance`.',
  SessionStart: 'Fires when a session starts, resumes, is cleared or forked (matcher: `source`); its output is context for the model.',
  InstructionsLoaded: 'Fires for each memory file (CLAUDE.md and its `@imports`) loaded at a session start (matcher: `load_reason`); it only observes.',
  UserPromptSubmit: 'Fires when a prompt is submitted, before the model sees it; exit 2 drops the prompt.',
  UserPromptExpansion: 'Fires when a slash command expands into a prompt (matcher: `command_name`); exit 2 drops it, output is context.',
  PreToolUse: 'Fires before a tool call runs (matcher: tool name); it can allow, deny, ask or rewrite the input.',
  PermissionRequest: 'Fires when a call would ask a person (matcher: tool name); it can answer allow or deny in their place, headless too.',
  PermissionDenied: 'Fires when a call is denied with nobody deciding — by the mode, or headless with nobody to ask; `retry: true` tells the model it may try again.',
  PostToolUse: 'Fires after a tool call succeeds; exit 2 feeds its reason to the model, output can add context.',
  PostToolUseFailure: 'Fires after a tool call fails; exit 2 feeds its reason to the model.',
  PostToolBatch: 'Claude Code fires it after a batch of tool calls.',
  Notification: 'Fires when the harness needs your attention, e.g. before a permission prompt (matcher: `notification_type`).',
  SubagentStart: 'Fires when a subagent starts (matcher: agent type); its output is context for the subagent.',
  SubagentStop: 'Fires when a subagent wants to stop; exit 2 keeps it working with the reason as its instruction.',
  TaskCreated: 'Fires when `task_create` is about to add a task; exit 2 rolls the creation back and the reason goes to the model.',
  TaskCompleted: 'Fires when `task_update` is about to complete a task; exit 2 keeps it open and the reason goes to the model.',
  Stop: 'Fires when the main agent wants to stop; exit 2 keeps it working (a bounded number of times).',
  StopFailure: 'Fires instead of Stop when the turn ends on an API error (matcher: the error type, e.g. `rate_limit`); it only observes.',
  TeammateIdle: 'Fires when a teammate is about to go idle; exit 2 keeps it working with the reason as its instruction (at most 3 times in a row).',
  PreCompact: 'Fires before a summary replaces the history, `auto` (the threshold) or `manual` (`/compact`) — the matcher tests which.',
  PostCompact: 'Fires after the summary replaced the history, with the summary.',
  ConfigChange: 'Fires when a settings file changes while the run works (matcher: `source`); settings are re-read at the next run.',
  CwdChanged: "Claude Code fires it when the working directory changes.",
  FileChanged: 'Claude Code fires it when a watched file changes.',
  WorktreeCreate: "Fires when a subagent's isolated workspace is made; exit 2 refuses it.",
  WorktreeRemove: "Fires when a subagent's isolated workspace is removed; it only observes.",
  Elicitation: 'Claude Code fires it when an MCP server asks the user for input.',
  ElicitationResult: "Claude Code fires it with the user's answer to an MCP elicitation.",
  SessionEnd: 'Fires when the session ends: a headless run, `/clear` (matcher: `reason`); it only observes.',
};

/** The explanation, saying so when the event never fires here. */
export function explainHookEvent(event: string): string {
  if (!isHookEventName(event)) return `${event} is not a hook event Claude Code has.`;
  const not = HOOK_EVENTS_NOT_FIRED[event];
  return not ? `${HOOK_EVENT_EXPLANATIONS[event]} Not fired here: ${not}.` : HOOK_EVENT_EXPLANATIONS[event];
}
