/**
 * The what-if panel's rule editor: one rule per line, `allow: Bash(ls *)`, `deny: Read(./.env)`,
 * `ask: Edit`, or a regex tier rule `deny: /rm\s+-rf/` (optionally `… tools /bash/`). Blank lines
 * and `#` comments are skipped. Errors name the line.
 */
import { compileSafeRegex, parseRule, type RuleBehavior, type SourcedRule } from '../../harness/permissions/index.ts';

export type RulesText = { rules: SourcedRule[]; errors: { line: number; message: string }[] };

const LINE = /^(allow|deny|ask)\s*:\s*(.*)$/i;
const REGEX = /^\/(.*)\/(?:\s+tools\s+\/(.*)\/)?$/;

/** The rules in force, as editable lines. */
export function rulesToText(rules: readonly SourcedRule[]): string {
  return rules
    .map((r) => {
      const body = r.rule.kind === 'tool' ? r.rule.text : `/${r.rule.pattern}/${r.rule.tool ? ` tools /${r.rule.tool}/` : ''}`;
      return `${r.behavior}: ${body}`;
    })
    .join('\n');
}

/** The same linear-time engine the permission pipeline runs tier patterns on. */
function validRegex(p: string): string | null {
  const r = compileSafeRegex(p, { ignoreCase: true });
  return r.ok ? null : r.error;
}

export function parseRulesText(text: string, source = 'what-if'): RulesText {
  const rules: SourcedRule[] = [];
  const errors: RulesText['errors'] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = LINE.exec(line);
    if (!m) {
      errors.push({ line: i + 1, message: `"${line}": start the line with allow:, deny: or ask:` });
      return;
    }
    const behavior = m[1]!.toLowerCase() as RuleBehavior;
    const body = m[2]!.trim();
    const rx = REGEX.exec(body);
    if (rx) {
      const pattern = rx[1]!;
      const tool = rx[2];
      const bad = validRegex(pattern) ?? (tool !== undefined ? validRegex(tool) : null);
      if (bad) errors.push({ line: i + 1, message: `${body}: not a valid regular expression (${bad})` });
      else rules.push({ behavior, source, rule: { kind: 'regex', pattern, ...(tool !== undefined ? { tool } : {}), text: `${behavior}: ${body}` } });
      return;
    }
    const parsed = parseRule(body);
    if (parsed.ok) rules.push({ behavior, source, rule: parsed.rule });
    else errors.push({ line: i + 1, message: parsed.error });
  });
  return { rules, errors };
}
