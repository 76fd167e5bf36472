/**
 * Things in a valid settings document that do not do what they look like they do. They are not
 * errors (Claude Code accepts them too), so the file still applies; the editor shows each one
 * with its line and column so nobody believes a rule grants what it does not.
 */
import { compoundSpecParts } from '../permissions/bash-command.ts';
import { parseRule } from '../permissions/rules.ts';
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
      const parts = parsed.rule.tool === 'Bash' && parsed.rule.specifier ? compoundSpecParts(parsed.rule.specifier) : null;
      if (parts) {
        out.push({
          path,
          message: `"${text}" is a compound command: it counts as ${parts.length} separate rules (${parts.map((p) => `Bash(${p})`).join(', ')}), each judged against one part of a command, as in Claude Code.`,
        });
      }
    });
  }
  if (settings.permissions?.defaultMode === 'bypassPermissions') {
    out.push({
      path: ['permissions', 'defaultMode'],
      message:
        'bypassPermissions is honoured only from user settings or a mode you pick yourself (the Mode menu, the runner\'s --permission-mode); a scenario\'s or project\'s settings cannot turn it on, so this runs in default mode.',
    });
  }
  return out;
}
