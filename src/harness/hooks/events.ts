/**
 * The hook events and handler types, by name: Claude Code's, and the ones this harness fires and
 * runs. Kept apart from the config schema (`config.ts`, zod) so the first screen can name and explain
 * events without loading it.
 */
/** Every hook event, in the order a session meets them. */
export const HOOK_EVENTS = [
  'Setup',
  'SessionStart',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'Stop',
  'StopFailure',
  'TeammateIdle',
  'PreCompact',
  'PostCompact',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'Elicitation',
  'ElicitationResult',
  'SessionEnd',
] as const;

/**
 * Events Claude Code has that never fire here, and why (README "Where we differ"): no `--init`
 * setup phase, our MCP client offers no elicitation, the agent's working directory never changes,
 * nothing watches files outside the run.
 */
export const HOOK_EVENTS_NOT_FIRED: Readonly<Partial<Record<HookEventName, string>>> = {
  Setup: 'there is no --init / --maintenance phase here',
  Elicitation: 'our MCP client does not offer elicitation',
  ElicitationResult: 'our MCP client does not offer elicitation',
  CwdChanged: "the agent's working directory never changes here",
  FileChanged: 'nothing watches files between runs here',
  PostToolBatch: "each call's PostToolUse / PostToolUseFailure fires; the batch as a whole is not an event here",
};

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The events this harness fires: {@link HOOK_EVENTS} without those in {@link HOOK_EVENTS_NOT_FIRED}. */
export const HOOK_EVENTS_FIRED: readonly HookEventName[] = HOOK_EVENTS.filter((e) => !(e in HOOK_EVENTS_NOT_FIRED));

/**
 * Every hook event in Claude Code's current hooks reference. A settings file may name any of them
 * and still loads; those not in {@link HOOK_EVENTS} (the ones this harness fires) are reported as
 * "loaded, not run here" by the settings loader instead of failing the file.
 */
export const CLAUDE_CODE_HOOK_EVENTS = [
  'Setup',
  'SessionStart',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'Stop',
  'StopFailure',
  'TeammateIdle',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'Elicitation',
  'ElicitationResult',
  'MessageDisplay',
  'SessionEnd',
] as const;

/** Claude Code's hook handler types (`command`, `prompt`, `agent`, `http`, `mcp_tool`). */
export const CLAUDE_CODE_HOOK_TYPES = ['command', 'prompt', 'agent', 'http', 'mcp_tool'] as const;

/** The handler types this harness runs (ours adds `js`); other Claude Code types load with a warning. */
export const HOOK_TYPES_RUN_HERE: readonly string[] = ['command', 'prompt', 'http', 'js'];

export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Default per-hook timeout, seconds (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
