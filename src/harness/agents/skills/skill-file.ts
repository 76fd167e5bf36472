/**
 * One SKILL.md: YAML frontmatter (`name`, `description`, optional `allowed-tools`) between `---`
 * lines, then the body the model reads when it invokes the skill. Parsing is strict about what the
 * model will rely on (a name, a description) and names the file and line of any problem.
 */
import { parseDocument } from 'yaml';
import { toolListWarnings } from '../../permissions/tool-names.ts';

export type SkillOrigin = 'builtin' | 'project' | 'scenario';

export type Skill = {
  name: string;
  description: string;
  /** Tool rules the skill may use without asking while it is loaded, e.g. `Bash(npm test *)`, `Read`. */
  allowedTools: string[];
  /** The instructions after the frontmatter. */
  body: string;
  origin: SkillOrigin;
  /** Where it came from, for people: `skills/code-review/SKILL.md` or `.claude/skills/x/SKILL.md`. */
  path: string;
  /** The skill's other files, relative to its folder (they load only when the model reads them). */
  files: string[];
  /** Their contents, for built-in skills that are not in the sandbox until loaded. */
  fileContents?: Record<string, string>;
};

export type SkillProblem = { path: string; line?: number; message: string };

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export type ParsedSkillFile = { ok: true; name: string; description: string; allowedTools: string[]; body: string; /** `allowed-tools` entries that grant no tool here (the skill still loads). */ warnings: string[] } | { ok: false; problem: SkillProblem };

export function parseSkillFile(text: string, path: string, folderName: string): ParsedSkillFile {
  const bad = (message: string, line?: number): ParsedSkillFile => ({ ok: false, problem: { path, ...(line ? { line } : {}), message } });
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') return bad('SKILL.md must start with a frontmatter block: a line "---", then name: and description:, then "---".', 1);
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) return bad('the frontmatter is not closed: add a line "---" after description.', 1);
  const doc = parseDocument(lines.slice(1, end).join('\n'), { prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    return bad(`the frontmatter is not valid YAML: ${e.message.split('\n')[0]}`, (e.linePos?.[0]?.line ?? 0) + 1);
  }
  const data: unknown = doc.toJS();
  if (!data || typeof data !== 'object' || Array.isArray(data)) return bad('the frontmatter must be "key: value" lines.', 2);
  const fm = data as Record<string, unknown>;
  const lineOf = (key: string) => {
    const i = lines.findIndex((l, n) => n > 0 && n < end && l.startsWith(`${key}:`));
    return i >= 0 ? i + 1 : 2;
  };
  const name = fm.name ?? folderName;
  if (typeof name !== 'string' || !NAME.test(name)) return bad(`name must be lower-case words joined by hyphens (got ${JSON.stringify(name)}).`, lineOf('name'));
  if (name !== folderName) return bad(`name "${name}" differs from its folder "${folderName}": rename one so they match.`, lineOf('name'));
  if (typeof fm.description !== 'string' || fm.description.trim() === '') {
    return bad('description is missing: say in one sentence when the skill should be used (it is all the model sees until it loads the skill).', lineOf('description'));
  }
  const allowed = fm['allowed-tools'];
  let allowedTools: string[] = [];
  if (typeof allowed === 'string') allowedTools = splitToolList(allowed);
  else if (Array.isArray(allowed) && allowed.every((a) => typeof a === 'string')) allowedTools = allowed as string[];
  else if (allowed !== undefined) return bad('allowed-tools must be a list of tool rules, e.g. "Read, Grep, Bash(npm test *)".', lineOf('allowed-tools'));
  const warnings = toolListWarnings(allowedTools, 'allowed-tools');
  return { ok: true, name, description: fm.description.trim(), allowedTools, body: lines.slice(end + 1).join('\n').trim(), warnings };
}

/** `Read, Grep, Bash(npm test *)` → three rules (commas inside parentheses stay). */
function splitToolList(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
