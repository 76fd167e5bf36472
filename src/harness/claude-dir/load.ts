/**
 * `loadClaudeDir`: the files of a `.claude/` setup (a dropped folder, a picked one, pasted files)
 * → what each is, parsed, with every problem named by file and line. A broken file is reported
 * and left out; every other file still loads (Claude Code drops a bad settings file silently —
 * we say so instead).
 *
 * Nothing here runs anything: it says what *could* act (hooks, allow rules, MCP servers, skills
 * with scripts) so the trust gate can ask before any of it does.
 */
import { parseSettings } from '../settings/parse.ts';
import type { Settings } from '../settings/schema.ts';
import { findJsonProblem } from '../settings/json-check.ts';
import { parseSkillFile } from '../agents/skills/skill-file.ts';
import { parseDefinition } from '../agents/subagents/definitions.ts';
import { parseCommandFile } from '../commands/command-file.ts';
import { toolListWarnings } from '../permissions/tool-names.ts';

/** The 1-based line of a frontmatter key (`tools:`), or 1. */
const lineOfKey = (text: string, key: string) => text.split('\n').findIndex((l) => l.startsWith(`${key}:`)) + 1 || 1;
import { classifyPath, USER_PREFIX } from './paths.ts';
import { isProjectRelativePath } from '../util/paths.ts';

export type ClaudeDirProblem = { file: string; line: number; column?: number; message: string };

export type ScopeFile = { scope: 'user' | 'project' | 'local'; file: string; settings: Settings };

export type ClaudeDirImport = {
  /** Settings documents that parsed, one per scope present. */
  settings: ScopeFile[];
  /** Files for the sandbox, project-relative: everything but the user's own `~/.claude/` files. */
  sandboxFiles: Record<string, string>;
  /** CLAUDE.md files (project-relative paths; user ones are listed but not put in the sandbox). */
  memory: string[];
  skills: { name: string; file: string; scripts: string[] }[];
  agents: string[];
  /** `.mcp.json`'s server names (reading and connecting them is the MCP layer's job). */
  mcpServers: string[];
  hookScripts: string[];
  /** What could act once trusted, in words, for the trust question. */
  canAct: string[];
  /** Files that are not used, and why (the user's CLAUDE.md and agents have no place in the sandbox). */
  notes: string[];
  problems: ClaudeDirProblem[];
};

function lineOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** `.mcp.json`: `{ "mcpServers": { name: {...} } }`. Problems point at the line. */
function mcpServersOf(file: string, text: string, problems: ClaudeDirProblem[]): string[] | null {
  const bad = findJsonProblem(text);
  if (bad) {
    problems.push({ file, ...lineOf(text, bad.offset), message: `JSON syntax: ${bad.message}` });
    return null;
  }
  const value: unknown = JSON.parse(text);
  const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push({ file, line: 1, message: 'expected an object with "mcpServers": { "<name>": { "command" or "url": … } }' });
    return null;
  }
  const names: string[] = [];
  for (const [name, def] of Object.entries(servers)) {
    const d = def as { command?: unknown; url?: unknown } | null;
    if (!d || typeof d !== 'object' || (typeof d.command !== 'string' && typeof d.url !== 'string')) {
      const at = text.indexOf(JSON.stringify(name));
      problems.push({ file, ...lineOf(text, Math.max(0, at)), message: `server "${name}" needs a "command" (stdio) or a "url" (HTTP)` });
      continue;
    }
    names.push(name);
  }
  return names;
}

function hookCommands(settings: Settings): string[] {
  const out: string[] = [];
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const g of groups ?? []) for (const h of g.hooks) if (h.type === 'command') out.push(h.command);
  }
  return out;
}

export function loadClaudeDir(files: Readonly<Record<string, string>>): ClaudeDirImport {
  const out: ClaudeDirImport = { settings: [], sandboxFiles: {}, memory: [], skills: [], agents: [], mcpServers: [], hookScripts: [], canAct: [], notes: [], problems: [] };
  const paths = Object.keys(files).sort();
  const skillFiles = new Map<string, string[]>();
  for (const path of paths) {
    const text = files[path]!;
    const kind = classifyPath(path);
    const userFile = path.startsWith(USER_PREFIX);
    if (!isProjectRelativePath(userFile ? path.slice(USER_PREFIX.length) : path)) {
      // `../x`, `/etc/x`, `.claude/../../x`: named and left out, never a file outside the project.
      out.problems.push({ file: path, line: 1, message: 'this path leaves the project (absolute, or with ".."): left out; paths are relative to the project, or start with ~/.claude/' });
      continue;
    }
    if (!userFile) out.sandboxFiles[path] = text;
    switch (kind.kind) {
      case 'settings': {
        const parsed = parseSettings(text, 'json');
        if (!parsed.ok) {
          for (const e of parsed.errors) out.problems.push({ file: path, line: e.line, column: e.column, message: e.message });
          for (const n of parsed.fallbackNotes) out.problems.push({ file: path, line: 1, message: `fails closed: ${n}` });
        }
        for (const w of parsed.warnings) out.problems.push({ file: path, line: w.line, column: w.column, message: `warning: ${w.message}` });
        // A file with mistakes still applies what it can, failing closed: its deny rules never vanish with them.
        const s = parsed.ok ? parsed.settings : parsed.fallback;
        out.settings.push({ scope: kind.scope, file: path, settings: s });
        const hooks = hookCommands(s);
        if (hooks.length) out.canAct.push(`${path}: ${hooks.length} hook command(s)`);
        if (s.permissions?.allow?.length) out.canAct.push(`${path}: allow rules ${s.permissions.allow.join(', ')}`);
        if (s.permissions?.defaultMode && s.permissions.defaultMode !== 'default') out.canAct.push(`${path}: mode ${s.permissions.defaultMode}`);
        break;
      }
      case 'memory':
        out.memory.push(path);
        // The user's CLAUDE.md goes to the sandbox's home (~/.claude/CLAUDE.md), where discovery reads it first.
        if (kind.user && path === `${USER_PREFIX}CLAUDE.md`) out.sandboxFiles[path] = text;
        else if (kind.user) out.notes.push(`${path}: not a memory file Claude Code reads from ~/.claude (only ~/.claude/CLAUDE.md is); left out`);
        break;
      case 'skill': {
        const list = skillFiles.get(kind.name) ?? [];
        if (!kind.main) list.push(path);
        skillFiles.set(kind.name, list);
        if (kind.main) {
          const parsed = parseSkillFile(text, path, kind.name);
          if (!parsed.ok) out.problems.push({ file: path, line: parsed.problem.line ?? 1, message: parsed.problem.message });
          else {
            out.skills.push({ name: parsed.name, file: path, scripts: [] });
            for (const w of parsed.warnings) out.problems.push({ file: path, line: lineOfKey(text, 'allowed-tools'), message: `warning: ${w}` });
          }
        }
        break;
      }
      case 'agent': {
        const parsed = parseDefinition(path, text);
        if (!parsed.ok) out.problems.push({ file: path, line: parsed.problem.line, message: parsed.problem.message });
        else {
          out.agents.push(path);
          for (const w of parsed.warnings) out.problems.push({ file: path, line: lineOfKey(text, 'tools'), message: `warning: ${w}` });
        }
        if (kind.user) out.notes.push(`${path}: your own agents are listed, not loaded (only the project's .claude/agents/ is)`);
        break;
      }
      case 'mcp': {
        const names = mcpServersOf(path, text, out.problems);
        if (names) {
          out.mcpServers.push(...names);
          if (names.length) out.canAct.push(`${path}: MCP server(s) ${names.join(', ')}`);
        }
        break;
      }
      case 'hook-script':
        out.hookScripts.push(path);
        break;
      case 'other': {
        // A custom slash command (project or ~/.claude): its allowed-tools warn like a skill's.
        if (/^(\.claude|~\/\.claude)\/commands\/.+\.md$/.test(path)) {
          const parsed = parseCommandFile(text, path, userFile ? 'user' : 'project');
          if (!parsed.ok) out.problems.push({ file: path, line: parsed.problem.line ?? 1, message: parsed.problem.message });
          else for (const w of toolListWarnings(parsed.command.allowedTools, 'allowed-tools')) out.problems.push({ file: path, line: lineOfKey(text, 'allowed-tools'), message: `warning: ${w}` });
          if (userFile) out.sandboxFiles[path] = text;
        } else if (userFile) out.notes.push(`${path}: not a file Claude Code reads from ~/.claude; left out`);
        break;
      }
    }
  }
  for (const skill of out.skills) {
    skill.scripts = skillFiles.get(skill.name) ?? skillFiles.get(skill.file.split('/')[2]!) ?? [];
    if (skill.scripts.length) out.canAct.push(`${skill.file}: skill with ${skill.scripts.length} script file(s)`);
  }
  return out;
}
