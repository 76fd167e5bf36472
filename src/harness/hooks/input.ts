/**
 * The JSON a hook gets on stdin (or as a JS hook's argument), in Claude Code's snake_case shape:
 * the common fields (`session_id`, `transcript_path`, `cwd`, `permission_mode`,
 * `hook_event_name`) plus the fields of the event.
 */
import { WORKDIR } from '../ports.ts';
import type { HookEventName } from './config.ts';

/** Facts about the session every hook input carries. */
export type HookSession = {
  sessionId: string;
  /** The agent's working directory (WORKDIR unless changed). */
  cwd: string;
  /** The permission mode in force: `default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions`. */
  permissionMode: string;
  /** Defaults to {@link transcriptPathFor}(sessionId). Virtual: the transcript lives in IndexedDB. */
  transcriptPath?: string;
};

type ToolFields = { toolName: string; toolInput: unknown; toolUseId: string };

/** What each event adds to the common fields, in our camelCase; {@link buildHookInput} renames. */
export type HookPayload =
  | ({ event: 'PreToolUse' } & ToolFields)
  | ({ event: 'PermissionRequest' } & ToolFields)
  | ({ event: 'PostToolUse'; toolResponse: unknown } & ToolFields)
  | ({ event: 'PostToolUseFailure'; error: string; isInterrupt?: boolean } & ToolFields)
  | { event: 'UserPromptSubmit'; prompt: string }
  | { event: 'Stop'; stopHookActive: boolean; lastAssistantMessage?: string }
  | { event: 'SubagentStop'; stopHookActive: boolean; agentId: string; agentType: string }
  | { event: 'SubagentStart'; agentId: string; agentType: string }
  | { event: 'SessionStart'; source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork'; model?: string }
  | { event: 'PreCompact'; trigger: 'manual' | 'auto'; customInstructions: string }
  | { event: 'PostCompact'; trigger: 'manual' | 'auto'; summary?: string }
  | { event: 'Notification'; message: string; notificationType?: string; title?: string }
  | { event: 'SessionEnd'; reason: SessionEndReason }
  | ({ event: 'PermissionDenied'; reason: string } & ToolFields)
  | { event: 'StopFailure'; error: StopFailureError; errorDetails: string; lastAssistantMessage?: string }
  | ({ event: 'TaskCreated' | 'TaskCompleted' } & TaskFields)
  | { event: 'TeammateIdle'; teammateName: string; teamName: string }
  | { event: 'ConfigChange'; source: 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills'; filePath: string }
  | {
      event: 'InstructionsLoaded';
      filePath: string;
      memoryType: 'User' | 'Project' | 'Local' | 'Managed';
      loadReason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact';
      parentFilePath?: string;
    }
  | { event: 'WorktreeCreate'; name: string }
  | { event: 'WorktreeRemove'; worktreePath: string }
  | { event: 'UserPromptExpansion'; commandName: string; commandArgs: string; prompt: string };

/** Claude Code's SessionEnd reasons. */
export type SessionEndReason = 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'bypass_permissions_disabled' | 'other';

/** Claude Code's StopFailure error types (the matcher is tested on this). */
export type StopFailureError =
  | 'rate_limit'
  | 'authentication_failed'
  | 'billing_error'
  | 'invalid_request'
  | 'server_error'
  | 'max_output_tokens'
  | 'unknown';

type TaskFields = { taskId: string; taskSubject: string; taskDescription?: string; teammateName?: string; teamName?: string };

/** The stdin JSON: plain data, snake_case keys. */
export type HookInput = { hook_event_name: HookEventName } & Record<string, unknown>;

/** Where the transcript of a session would be on disk; the UI can export it there. */
export function transcriptPathFor(sessionId: string): string {
  return `${WORKDIR}/.harness/transcripts/${sessionId}.jsonl`;
}

export function buildHookInput(payload: HookPayload, session: HookSession): HookInput {
  const common = {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath ?? transcriptPathFor(session.sessionId),
    cwd: session.cwd,
    permission_mode: session.permissionMode,
    hook_event_name: payload.event,
  };
  return { ...common, ...eventFields(payload) };
}

function eventFields(p: HookPayload): Record<string, unknown> {
  switch (p.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return toolFields(p);
    case 'PostToolUse':
      return { ...toolFields(p), tool_response: p.toolResponse };
    case 'PostToolUseFailure':
      return { ...toolFields(p), error: p.error, ...(p.isInterrupt !== undefined ? { is_interrupt: p.isInterrupt } : {}) };
    case 'UserPromptSubmit':
      return { prompt: p.prompt };
    case 'Stop':
      return {
        stop_hook_active: p.stopHookActive,
        ...(p.lastAssistantMessage !== undefined ? { last_assistant_message: p.lastAssistantMessage } : {}),
      };
    case 'SubagentStop':
      return { stop_hook_active: p.stopHookActive, agent_id: p.agentId, agent_type: p.agentType };
    case 'SubagentStart':
      return { agent_id: p.agentId, agent_type: p.agentType };
    case 'SessionStart':
      return { source: p.source, ...(p.model !== undefined ? { model: p.model } : {}) };
    case 'PreCompact':
      return { trigger: p.trigger, custom_instructions: p.customInstructions };
    case 'PostCompact':
      return { trigger: p.trigger, ...(p.summary !== undefined ? { compact_summary: p.summary } : {}) };
    case 'Notification':
      return {
        message: p.message,
        ...(p.notificationType !== undefined ? { notification_type: p.notificationType } : {}),
        ...(p.title !== undefined ? { title: p.title } : {}),
      };
    case 'SessionEnd':
      return { reason: p.reason };
    case 'PermissionDenied':
      return { ...toolFields(p), reason: p.reason };
    case 'StopFailure':
      return {
        error: p.error,
        error_details: p.errorDetails,
        ...(p.lastAssistantMessage !== undefined ? { last_assistant_message: p.lastAssistantMessage } : {}),
      };
    case 'TaskCreated':
    case 'TaskCompleted':
      return {
        task_id: p.taskId,
        task_subject: p.taskSubject,
        ...(p.taskDescription !== undefined ? { task_description: p.taskDescription } : {}),
        ...(p.teammateName !== undefined ? { teammate_name: p.teammateName } : {}),
        ...(p.teamName !== undefined ? { team_name: p.teamName } : {}),
      };
    case 'TeammateIdle':
      return { teammate_name: p.teammateName, team_name: p.teamName };
    case 'ConfigChange':
      return { source: p.source, file_path: p.filePath };
    case 'InstructionsLoaded':
      return {
        file_path: p.filePath,
        memory_type: p.memoryType,
        load_reason: p.loadReason,
        ...(p.parentFilePath !== undefined ? { parent_file_path: p.parentFilePath } : {}),
      };
    case 'WorktreeCreate':
      return { name: p.name };
    case 'WorktreeRemove':
      return { worktree_path: p.worktreePath };
    case 'UserPromptExpansion':
      return { command_name: p.commandName, command_args: p.commandArgs, prompt: p.prompt };
  }
}

function toolFields(p: ToolFields): Record<string, unknown> {
  return { tool_name: p.toolName, tool_input: p.toolInput, tool_use_id: p.toolUseId };
}
