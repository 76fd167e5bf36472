/**
 * A hook handler's `if`: a condition in permission-rule syntax (`"if": "Bash(git *)"`,
 * `"if": "Edit(src/**)"`), as in Claude Code — the handler runs only for tool calls the rule
 * names, judged like a rule (a compound command matches when any part does). Only tool events
 * (PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure) have a call to test; on other
 * events an `if` is ignored, and the settings schema rejects an `if` that is not a valid rule.
 */
import { callFacts } from '../permissions/call-facts.ts';
import { ruleNamesCall } from '../permissions/evaluate.ts';
import { parseRule } from '../permissions/rules.ts';
import type { HookInput } from './input.ts';

/** Whether a handler with condition `cond` runs for this input (no condition: always). */
export function hookConditionHolds(cond: string | undefined, input: HookInput): boolean {
  if (cond === undefined) return true;
  const rec = input as Record<string, unknown>;
  if (typeof rec.tool_name !== 'string') return true;
  const parsed = parseRule(cond);
  // The schema refuses invalid conditions; one that slips through (a hand-built config) must not widen anything: it never matches.
  if (!parsed.ok) return false;
  const cwd = typeof rec.cwd === 'string' ? rec.cwd : '/';
  return ruleNamesCall(parsed.rule, callFacts(rec.tool_name, rec.tool_input, cwd, cwd), cwd);
}
