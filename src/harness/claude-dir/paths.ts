/**
 * Where a file of an imported `.claude/` setup belongs, by its path. Claude Code finds each kind
 * of file at a fixed place, so the path alone says what a file is: settings at three scopes,
 * memory, skills, subagents, MCP servers, hook scripts, and everything else (plain project files).
 *
 * Paths are relative to the project root, with `/`. The user's own folder is written `~/.claude/…`
 * (the directory picker for "my ~/.claude" prefixes it, and a pasted file may name it so).
 */
export type ClaudeFileKind =
  | { kind: 'settings'; scope: 'user' | 'project' | 'local' }
  | { kind: 'memory'; user: boolean }
  | { kind: 'skill'; name: string; main: boolean }
  | { kind: 'agent'; user: boolean }
  | { kind: 'mcp' }
  | { kind: 'hook-script' }
  | { kind: 'other' };

export const USER_PREFIX = '~/.claude/';
export const PROJECT_SETTINGS = '.claude/settings.json';
export const LOCAL_SETTINGS = '.claude/settings.local.json';

export function classifyPath(path: string): ClaudeFileKind {
  const user = path.startsWith(USER_PREFIX);
  const rest = user ? `.claude/${path.slice(USER_PREFIX.length)}` : path;
  if (rest === PROJECT_SETTINGS) return { kind: 'settings', scope: user ? 'user' : 'project' };
  if (rest === LOCAL_SETTINGS && !user) return { kind: 'settings', scope: 'local' };
  if (/(^|\/)CLAUDE(\.local)?\.md$/.test(rest)) return { kind: 'memory', user };
  const skill = /^\.claude\/skills\/([^/]+)\/(.+)$/.exec(rest);
  if (skill) return { kind: 'skill', name: skill[1]!, main: skill[2] === 'SKILL.md' };
  if (/^\.claude\/agents\/[^/]+\.md$/.test(rest)) return { kind: 'agent', user };
  if (rest === '.mcp.json' && !user) return { kind: 'mcp' };
  if (/^\.claude\/hooks\//.test(rest)) return { kind: 'hook-script' };
  return { kind: 'other' };
}

/**
 * A picked folder's paths start with the folder's own name (`my-app/.claude/settings.json`):
 * drop that one shared first segment, unless it is `.claude` itself (the user picked the
 * `.claude` folder, whose paths are already project-relative).
 */
export function stripPickedRoot(paths: readonly string[]): (p: string) => string {
  const firsts = new Set(paths.map((p) => p.split('/')[0]));
  const only = firsts.size === 1 ? [...firsts][0]! : null;
  if (!only || only === '.claude' || only === '~' || paths.some((p) => !p.includes('/'))) return (p) => p;
  return (p) => p.slice(only.length + 1);
}
