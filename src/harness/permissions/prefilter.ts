/**
 * The pre-filter: a tool denied outright by a bare rule (`Bash`, `Bash(*)`, `Edit`, `mcp__x`) is
 * removed from the model's tool list before the request, so the model never sees it. Rules with a
 * specifier (and seed 003's regex tiers) do not hide a tool: they are judged per call.
 */
import { describeRule } from './evaluate.ts';
import { ruleNamesTool } from './rules.ts';
import type { SourcedRule } from './types.ts';

export type PrefilterResult<T> = { visible: T[]; hidden: { name: string; rule: string }[] };

export function prefilterTools<T extends { name: string }>(tools: readonly T[], rules: readonly SourcedRule[]): PrefilterResult<T> {
  const visible: T[] = [];
  const hidden: { name: string; rule: string }[] = [];
  for (const tool of tools) {
    const r = rules.find((x) => x.behavior === 'deny' && x.rule.kind === 'tool' && x.rule.specifier === undefined && ruleNamesTool(x.rule.tool, tool.name));
    if (r) hidden.push({ name: tool.name, rule: describeRule(r) });
    else visible.push(tool);
  }
  return { visible, hidden };
}
