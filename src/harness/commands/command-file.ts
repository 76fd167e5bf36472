/**
 * One custom slash command, as Claude Code reads `.claude/commands/<name>.md`: an optional YAML
 * frontmatter (`description`, `argument-hint`, `allowed-tools`, `model`) between `---` lines, then
 * the prompt. The file name (without `.md`) is the command; a file in a subfolder keeps its
 * folder as a namespace shown in the description (`frontend/test.md` → `/test (project:frontend)`).
 */
import { parseDocument } from 'yaml';
import { splitToolList } from '../permissions/tool-list.ts';

export type CommandScope = 'project' | 'user';

export type ProjectCommand = {
  name: string;
  description: string;
  argumentHint?: string;
  /** Permission rules allowed without asking while this command's prompt runs (`Bash(git add:*)`, `Read`). */
  allowedTools: string[];
  /** The model for this prompt (`model:` in the frontmatter); the run's own when absent. */
  model?: string;
  /** The prompt, `$ARGUMENTS` / `$1`… still in it. */
  body: string;
  scope: CommandScope;
  /** Where it came from, for people: `.claude/commands/review.md`. */
  path: string;
};

export type CommandProblem = { path: string; line?: number; message: string };

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;

export function parseCommandFile(text: string, path: string, scope: CommandScope): { ok: true; command: ProjectCommand } | { ok: false; problem: CommandProblem } {
  const bad = (message: string, line?: number) => ({ ok: false as const, problem: { path, ...(line ? { line } : {}), message } });
  const parts = path.replace(/\.md$/, '').split('/');
  const dirIndex = parts.lastIndexOf('commands');
  const name = parts.at(-1)!;
  const namespace = parts.slice(dirIndex + 1, -1).join(':');
  if (!NAME.test(name)) return bad(`"${name}" is not a command name: use letters, digits, "-" and "_" (the file name is the command).`);
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let fm: Record<string, unknown> = {};
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (end < 0) return bad('the frontmatter is not closed: add a line "---" after it.', 1);
    const parsed = readFrontmatter(lines.slice(1, end));
    if ('problem' in parsed) return bad(parsed.problem, parsed.line);
    fm = parsed.fm;
    bodyStart = end + 1;
  }
  const lineOf = (key: string) => lines.findIndex((l) => l.startsWith(`${key}:`)) + 1 || undefined;
  const allowed = fm['allowed-tools'];
  let allowedTools: string[] = [];
  if (typeof allowed === 'string') allowedTools = splitToolList(allowed);
  else if (Array.isArray(allowed) && allowed.every((a) => typeof a === 'string')) allowedTools = allowed as string[];
  else if (allowed !== undefined && allowed !== null) return bad('allowed-tools must be a list of tool rules, e.g. "Bash(git add:*), Read".', lineOf('allowed-tools'));
  const body = lines.slice(bodyStart).join('\n').trim();
  const firstLine = body.split('\n')[0]!.trim();
  const described = typeof fm.description === 'string' && fm.description.trim() ? fm.description.trim() : firstLine;
  const description = `${described}${namespace ? ` (${scope}:${namespace})` : ` (${scope})`}`;
  return {
    ok: true,
    command: {
      name,
      description,
      ...(typeof fm['argument-hint'] === 'string' ? { argumentHint: fm['argument-hint'] } : {}),
      allowedTools,
      ...(typeof fm.model === 'string' && fm.model.trim() ? { model: fm.model.trim() } : {}),
      body,
      scope,
      path,
    },
  };
}

/**
 * Claude Code reads a command's frontmatter leniently: its own docs write
 * `argument-hint: [pr-number] [priority]`, which is not valid YAML. So each `key: value` line is
 * taken as written (quotes removed); only an indented block (a YAML list under `allowed-tools:`)
 * needs YAML, and a block that is not valid YAML is a problem with its line.
 */
function readFrontmatter(lines: string[]): { fm: Record<string, unknown> } | { problem: string; line: number } {
  const fm: Record<string, unknown> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!m) return { problem: `expected "key: value" (got ${JSON.stringify(line.trim())}).`, line: i + 2 };
    const [, key, raw] = m as unknown as [string, string, string];
    let j = i + 1;
    while (j < lines.length && /^\s+\S/.test(lines[j]!)) j++;
    if (raw.trim() === '' && j > i + 1) {
      const doc = parseDocument(lines.slice(i, j).join('\n'), { prettyErrors: false });
      if (doc.errors.length > 0) return { problem: `the frontmatter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`, line: i + 2 };
      fm[key] = (doc.toJS() as Record<string, unknown>)[key];
      i = j - 1;
      continue;
    }
    const value = raw.trim();
    if (/^\{/.test(value)) return { problem: `${key} must be text or a list, not a mapping.`, line: i + 2 };
    fm[key] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return { fm };
}
