/**
 * Things in a valid settings document that do not do what they look like they do. They are not
 * errors (Claude Code accepts them too), so the file still applies; the editor shows each one
 * with its line and column so nobody believes a rule grants what it does not.
 */
import { compoundSpecParts } from '../permissions/bash-command.ts';
import { parseRule } from '../permissions/rules.ts';
import { toolNameWarning } from '../permissions/tool-names.ts';
import { compileMatcher } from '../hooks/matcher.ts';
import type { Settings } from './schema.ts';

export type SettingsWarningAt = { path: (string | number)[]; message: string };

/** Why a `Write(...)` rule is not a rule here: Claude Code does not honour it, and neither do we for allows. */
export function writeRuleWarning(text: string, behavior: 'allow' | 'ask' | 'deny'): string {
  const edit = text.replace(/^\s*Write/i, 'Edit');
  return behavior === 'allow'
    ? `"${text}" grants nothing: Claude Code does not honour Write(...) rules (Edit(...) rules cover writes), so a write it names still asks. Write ${edit} to allow it.`
    : `"${text}": Claude Code does not honour Write(...) rules (Edit(...) rules cover writes). This playground still applies it as a ${behavior} (stricter), but write ${edit} so it means the same in Claude Code.`;
}

export function settingsWarnings(settings: Settings): SettingsWarningAt[] {
  const out: SettingsWarningAt[] = [];
  for (const behavior of ['allow', 'ask', 'deny'] as const) {
    (settings.permissions?.[behavior] ?? []).forEach((text, i) => {
      const parsed = parseRule(text);
      if (!parsed.ok) return;
      const path = ['permissions', behavior, i];
      if (parsed.rule.tool === 'Write') out.push({ path, message: writeRuleWarning(text, behavior) });
      const unknown = toolNameWarning(parsed.rule.tool, `"${text}"`);
      if (unknown) out.push({ path, message: unknown });
      const parts = parsed.rule.tool === 'Bash' && parsed.rule.specifier ? compoundSpecParts(parsed.rule.specifier) : null;
      if (parts) {
        out.push({
          path,
          message: `"${text}" is a compound command: it counts as ${parts.length} separate rules (${parts.map((p) => `Bash(${p})`).join(', ')}), each judged against one part of a command, as in Claude Code.`,
        });
      }
    });
  }
  out.push(...hookToolNameWarnings(settings));
  if (settings.permissions?.defaultMode === 'bypassPermissions') {
    out.push({
      path: ['permissions', 'defaultMode'],
      message:
        'bypassPermissions is honoured only from user settings or a mode you pick yourself (the Mode menu, the runner\'s --permission-mode); a scenario\'s or project\'s settings cannot turn it on, so this runs in default mode.',
    });
  }
  return out;
}

const TOOL_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure']);

/** Tool names in tool-event matchers (`"matcher": "Agent|Foo"`) and handlers' `if` that match none of our tools. */
function hookToolNameWarnings(settings: Settings): SettingsWarningAt[] {
  const out: SettingsWarningAt[] = [];
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    if (!TOOL_EVENTS.has(event)) continue;
    (groups ?? []).forEach((g, gi) => {
      const m = (g.matcher ?? '').trim();
      const compiled = compileMatcher(m);
      if (compiled.ok && compiled.kind === 'list') {
        for (const name of m.split('|').map((n) => n.trim())) {
          const w = toolNameWarning(name, `the ${event} matcher "${m}"`);
          if (w) out.push({ path: ['hooks', event, gi, 'matcher'], message: w });
        }
      }
      g.hooks.forEach((h, hi) => {
        const cond = 'if' in h && typeof h.if === 'string' ? parseRule(h.if) : null;
        const w = cond?.ok ? toolNameWarning(cond.rule.tool, `"if": "${h.if}"`) : null;
        if (w) out.push({ path: ['hooks', event, gi, 'hooks', hi, 'if'], message: w });
      });
    });
  }
  return out;
}
