/**
 * One hook's process result (exit code, stdout, stderr) → what it asks for, with Claude Code's
 * per-event semantics. Pure; `aggregate.ts` combines the verdicts of every hook of an event.
 *
 * - exit 0: success. stdout that parses as a JSON object is the hook's output; other stdout is
 *   shown to the user (for UserPromptSubmit / SessionStart it becomes context for the model).
 * - exit 2: blocking; stderr is the reason. What "blocking" does depends on the event.
 *   JSON on stdout is ignored (Claude Code reads JSON only on exit 0).
 * - anything else (incl. a timeout): a non-blocking error shown to the user; the agent goes on.
 */
import type { HookEventName } from './config.ts';

export type PermissionDecision = 'allow' | 'deny' | 'ask';

/** What a single hook contributed. */
export type HookVerdict = {
  /** The label for the `hook.run` event. */
  label: 'allow' | 'deny' | 'ask' | 'block' | 'stop' | 'continue' | 'none';
  permission?: PermissionDecision;
  /** Exit 2 or `decision: "block"` on an event where blocking means something. */
  block?: boolean;
  /** Why: for the model (deny, block) or the user (allow, ask, dropped prompt). */
  reason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  systemMessage?: string;
  stop?: { reason: string };
  /** PermissionDenied's `hookSpecificOutput.retry: true`. */
  retry?: boolean;
  /** Shown to the user: a non-blocking error, plain stdout, a blocking error of an event that cannot block. */
  userMessage?: string;
};

/** Events where exit 2 / `decision: "block"` changes what happens. */
const BLOCKABLE: ReadonlySet<HookEventName> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  // Claude Code: exit 2 rolls back the task's creation / keeps it open, stderr to the model.
  'TaskCreated',
  'TaskCompleted',
  // exit 2: the teammate keeps working with stderr as its instruction.
  'TeammateIdle',
  // exit 2: the settings change is not taken (here: reported; settings are read at a run's start).
  'ConfigChange',
  // exit 2: the isolated workspace is not made (Claude Code: any failure fails the creation).
  'WorktreeCreate',
  // exit 2: the expanded slash command is dropped, like a blocked prompt.
  'UserPromptExpansion',
]);

/** Events where plain stdout on exit 0 is context for the model rather than a note for the user. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart']);

/** Events whose JSON `additionalContext` reaches the model. */
const TAKES_CONTEXT: ReadonlySet<HookEventName> = new Set([
  'UserPromptSubmit',
  'SessionStart',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'UserPromptExpansion',
]);

export type HookProcessResult = { exitCode: number; stdout: string; stderr: string; timedOut: boolean };

/** `desc` names the hook in messages, e.g. `PreToolUse hook "./check.sh"`. */
export function interpretHookResult(event: HookEventName, r: HookProcessResult, desc: string, timeoutS: number): HookVerdict {
  if (r.timedOut) {
    return { label: 'continue', userMessage: `${desc} timed out after ${timeoutS} s and was skipped; the agent goes on.` };
  }
  if (r.exitCode === 2) return blocking(event, r.stderr.trim() || `${desc} blocked this (exit 2) without a message.`, desc);
  if (r.exitCode !== 0) {
    const err = r.stderr.trim() || r.stdout.trim();
    return { label: 'continue', userMessage: `${desc} failed (exit ${r.exitCode})${err ? `: ${err}` : ''}; the agent goes on.` };
  }
  const json = parseJsonObject(r.stdout);
  if (!json) {
    const text = r.stdout.trim();
    if (!text) return { label: 'none' };
    return STDOUT_IS_CONTEXT.has(event) ? { label: 'none', additionalContext: text } : { label: 'none', userMessage: text };
  }
  return fromJson(event, json, desc);
}

function blocking(event: HookEventName, reason: string, desc: string): HookVerdict {
  if (event === 'PreToolUse' || event === 'PermissionRequest') return { label: 'deny', permission: 'deny', block: true, reason };
  if (BLOCKABLE.has(event)) return { label: 'block', block: true, reason };
  // SessionStart, Notification, PreCompact, …: nothing to block; the user sees why.
  return { label: 'block', userMessage: `${desc} reported (exit 2): ${reason}` };
}

function parseJsonObject(stdout: string): Record<string, unknown> | null {
  const t = stdout.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function fromJson(event: HookEventName, j: Record<string, unknown>, desc: string): HookVerdict {
  const v: HookVerdict = { label: 'none' };
  const notes: string[] = [];
  const specific = obj(j.hookSpecificOutput);
  if (specific && str(specific.hookEventName) && specific.hookEventName !== event) {
    notes.push(`hookSpecificOutput is for ${String(specific.hookEventName)}, not ${event}; ignored`);
  }
  const hso = specific && (specific.hookEventName === undefined || specific.hookEventName === event) ? specific : undefined;

  const systemMessage = str(j.systemMessage);
  if (systemMessage) v.systemMessage = systemMessage;

  // Permission decisions: PreToolUse's hookSpecificOutput, its older top-level approve/block,
  // and PermissionRequest's `decision.behavior`.
  if (event === 'PreToolUse' || event === 'PermissionRequest') {
    const pd = hso?.permissionDecision;
    const behavior = obj(hso?.decision)?.behavior;
    let decision: PermissionDecision | undefined;
    let reason = str(hso?.permissionDecisionReason) ?? str(obj(hso?.decision)?.message) ?? str(j.reason);
    if (pd === 'allow' || pd === 'deny' || pd === 'ask') decision = pd;
    else if (pd !== undefined) notes.push(`permissionDecision ${JSON.stringify(pd)} is not allow, deny or ask; ignored`);
    else if (behavior === 'allow' || behavior === 'deny') decision = behavior;
    else if (j.decision === 'approve') decision = 'allow';
    else if (j.decision === 'block') decision = 'deny';
    if (decision === 'deny' && !reason) reason = `${desc} denied this call.`;
    if (decision) {
      v.permission = decision;
      v.label = decision;
      if (decision === 'deny') v.block = true;
      if (reason) v.reason = reason;
    }
    const updated = obj(hso?.updatedInput) ?? obj(obj(hso?.decision)?.updatedInput);
    if (updated) v.updatedInput = updated;
  } else if (j.decision === 'block') {
    const reason = str(j.reason) ?? `${desc} blocked this without a reason.`;
    if (BLOCKABLE.has(event)) Object.assign(v, { label: 'block', block: true, reason });
    else notes.push(`decision "block" has no effect on ${event}: ${reason}`);
  }

  if (event === 'PermissionDenied' && hso?.retry === true) v.retry = true;

  const context = str(hso?.additionalContext) ?? str(j.additionalContext);
  if (context) {
    if (TAKES_CONTEXT.has(event)) v.additionalContext = context;
    else notes.push(`additionalContext is not used by ${event}; ignored`);
  }

  if (j.continue === false) {
    v.stop = { reason: str(j.stopReason) ?? `${desc} stopped the run (continue: false).` };
    v.label = 'stop';
  }
  if (notes.length > 0 && j.suppressOutput !== true) v.userMessage = `${desc}: ${notes.join('; ')}.`;
  return v;
}
