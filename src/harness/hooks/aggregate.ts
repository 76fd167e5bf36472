/**
 * Combines the verdicts of every hook that ran for one event into one {@link HookOutcome}.
 * Verdicts arrive in CONFIG order (not finish order), so the result does not depend on which
 * parallel hook happened to end first.
 */
import type { HookVerdict, PermissionDecision } from './interpret.ts';

/** Claude Code's cap on the context hooks may add to one event. */
export const MAX_ADDITIONAL_CONTEXT_CHARS = 10_000;

/**
 * What the hooks of one event ask the loop to do. Every field is optional in effect: an event
 * with no matching hooks gives `{ systemMessages: [], userMessages: [], ran: 0 }`.
 */
export type HookOutcome = {
  /**
   * PreToolUse / PermissionRequest: the strongest permission decision, deny > ask > allow.
   * A hook's `allow` never overrides a deny or ask rule: the loop still checks the rules.
   */
  decision?: PermissionDecision;
  /**
   * Some hook blocked (exit 2 or `decision: "block"`). By event: PreToolUse / PermissionRequest
   * → deny the call (`decision` is `deny` too); Stop / SubagentStop → do not stop, `reason` is the
   * instruction for the model; UserPromptSubmit → drop the prompt, `reason` is for the user;
   * PostToolUse / PostToolUseFailure → `reason` is fed to the model after the tool result.
   */
  block?: boolean;
  /**
   * Why, joined with newlines from every hook that gave the winning decision (or blocked).
   * For deny / block it is meant for the model; for allow / ask it is shown to the user.
   */
  reason?: string;
  /** PreToolUse / PermissionRequest: the replacement tool input (the first one, in config order). */
  updatedInput?: Record<string, unknown>;
  /** Context for the model, all hooks' joined, capped at 10,000 characters (the cut is marked). */
  additionalContext?: string;
  /** `systemMessage`s: warnings for the user, never sent to the model. */
  systemMessages: string[];
  /** Some hook said `continue: false`: end the run after the current step (first `stopReason`). */
  stopRun?: { reason: string };
  /** For the user only: non-blocking errors, timeouts, plain stdout, ignored fields. */
  userMessages: string[];
  /** How many hooks ran (after matching and de-duplication). */
  ran: number;
  /** PermissionDenied: some hook said `retry: true` — the model is told it may try the call again. */
  retry?: boolean;
};

const RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, deny: 3 };

export function aggregateVerdicts(verdicts: HookVerdict[]): HookOutcome {
  const out: HookOutcome = { systemMessages: [], userMessages: [], ran: verdicts.length };
  let best: PermissionDecision | undefined;
  for (const v of verdicts) {
    if (v.permission && (!best || RANK[v.permission] > RANK[best])) best = v.permission;
  }
  if (best) out.decision = best;

  const blocked = verdicts.some((v) => v.block);
  if (blocked) out.block = true;
  // Reasons come from the hooks that decided the outcome, so a losing allow's reason never
  // reads as the reason for a deny.
  const deciding = verdicts.filter((v) => (blocked ? v.block : best !== undefined && v.permission === best));
  const reasons = deciding.map((v) => v.reason).filter((r): r is string => !!r);
  if (reasons.length > 0) out.reason = reasons.join('\n');

  const updated = verdicts.find((v) => v.updatedInput)?.updatedInput;
  if (updated) out.updatedInput = updated;

  const contexts = verdicts.map((v) => v.additionalContext).filter((c): c is string => !!c);
  if (contexts.length > 0) out.additionalContext = capContext(contexts.join('\n\n'));

  if (verdicts.some((v) => v.retry)) out.retry = true;

  const stop = verdicts.find((v) => v.stop)?.stop;
  if (stop) out.stopRun = stop;

  for (const v of verdicts) {
    if (v.systemMessage) out.systemMessages.push(v.systemMessage);
    if (v.userMessage) out.userMessages.push(v.userMessage);
  }
  return out;
}

export function capContext(text: string): string {
  if (text.length <= MAX_ADDITIONAL_CONTEXT_CHARS) return text;
  const note = `\n[hook context cut: ${MAX_ADDITIONAL_CONTEXT_CHARS.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters shown]`;
  return text.slice(0, MAX_ADDITIONAL_CONTEXT_CHARS) + note;
}
