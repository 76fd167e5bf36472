/**
 * CLAUDE.md discovery: the memory files Claude Code reads at start-up, in its order — the user's
 * own `~/.claude/CLAUDE.md` first, then per directory from the root down to the working directory
 * (`/CLAUDE.md`, `/home/CLAUDE.md`, `/home/project/CLAUDE.md`, …) its `CLAUDE.md`,
 * `.claude/CLAUDE.md` and `CLAUDE.local.md`, root first, so the more specific file comes later
 * and wins where they disagree; then the project's `.claude/rules/**\/*.md` (a rule with `paths:`
 * frontmatter is labelled with the files it is for). Each file is followed by the files it
 * imports (`@path`, up to {@link MAX_IMPORT_HOPS} hops). Nothing here throws on a bad tree:
 * missing imports, cycles, over-deep chains and unreadable files come back as `problems`.
 */
import { HOME_DIR, WORKDIR, type SandboxFs } from '../ports.ts';
import type { MemoryFileInfo, MemoryProblem } from '../trace.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import { byCodeUnits } from '../util/order.ts';
import { normalizePath } from '../util/paths.ts';
import { findImports, resolveImport } from './imports.ts';

export const MEMORY_FILE_NAME = 'CLAUDE.md';
/** Per directory, in the order Claude Code reads them: the shared file, its `.claude/` twin, the personal (git-ignored) one. */
export const MEMORY_FILES_PER_DIR = [MEMORY_FILE_NAME, `.claude/${MEMORY_FILE_NAME}`, 'CLAUDE.local.md'] as const;
/** Modular project rules, every `.md` below it (Claude Code's `.claude/rules/`). */
export const RULES_DIR = '.claude/rules';
/** Claude Code follows imports at most this many hops from a directory's CLAUDE.md. */
export const MAX_IMPORT_HOPS = 4;
/** Files beyond this are cut (Claude Code warns above 40k characters). */
export const MAX_FILE_CHARS = 40_000;

/** What discovery needs from a file system: the sandbox's, or a scenario's files (`recordReader`). `list` finds `.claude/rules/`. */
export type MemoryFsReader = Pick<SandboxFs, 'readFile' | 'stat'> & Partial<Pick<SandboxFs, 'list'>>;

export type ClaudeMdOptions = {
  /** What `~/` means in an import; default the project directory. */
  home?: string;
  /** The user's home, whose `.claude/CLAUDE.md` is the user's memory; default the sandbox's `HOME_DIR`. */
  userHome?: string;
  maxHops?: number;
  maxFileChars?: number;
};

export type ClaudeMdResult = {
  /** Every file labelled with its path, root first, imports after their importer; '' when none. */
  text: string;
  files: MemoryFileInfo[];
  problems: MemoryProblem[];
};

/** The directories from `/` down to `cwd`, inclusive. */
export function directoriesDownTo(cwd: string): string[] {
  const parts = normalizePath(cwd).split('/').filter(Boolean);
  return ['/', ...parts.map((_, i) => '/' + parts.slice(0, i + 1).join('/'))];
}

export async function discoverClaudeMd(fs: MemoryFsReader, cwd: string, opts: ClaudeMdOptions = {}): Promise<ClaudeMdResult> {
  const home = opts.home ?? WORKDIR;
  const maxHops = opts.maxHops ?? MAX_IMPORT_HOPS;
  const maxChars = opts.maxFileChars ?? MAX_FILE_CHARS;
  const sections: string[] = [];
  const files: MemoryFileInfo[] = [];
  const problems: MemoryProblem[] = [];
  const included = new Set<string>();

  /** Reads one file and, after it, what it imports. `chain` is the import path that led here. */
  async function include(path: string, chain: string[], hops: number, label = ''): Promise<void> {
    const importedFrom = chain.at(-1);
    const from = importedFrom ? { importedFrom } : {};
    if (chain.includes(path)) {
      problems.push({ kind: 'cycle', path, ...from, message: `import cycle: ${[...chain, path].join(' → ')} (not followed again)` });
      return;
    }
    // Imported twice by different files (a diamond): shown once, where it first appeared.
    if (included.has(path)) return;
    const stat = await (asked.get(path) ?? fs.stat(path).catch(() => null));
    if (!stat) {
      if (importedFrom) problems.push({ kind: 'missing', path, ...from, message: `${importedFrom} imports ${path}, which does not exist` });
      return;
    }
    if (stat.kind !== 'file') {
      if (importedFrom) problems.push({ kind: 'unreadable', path, ...from, message: `${importedFrom} imports ${path}, which is a directory` });
      return;
    }
    let content: string;
    try {
      content = await fs.readFile(path);
    } catch (err) {
      problems.push({ kind: 'unreadable', path, ...from, message: `could not read ${path}: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    if (content.length > maxChars) {
      problems.push({ kind: 'truncated', path, ...from, message: `${path} has ${content.length} characters; only the first ${maxChars} are used` });
      content = content.slice(0, maxChars);
    }
    included.add(path);
    files.push({ path, ...from, tokens: estimateTextTokens(content) });
    const scoped = label === '' ? null : pathsFrontmatter(content);
    if (scoped) content = scoped.body;
    const note = scoped?.paths.length ? ` (a rule for files matching ${scoped.paths.join(', ')})` : label;
    sections.push(`Contents of ${path}${importedFrom ? ` (imported by ${importedFrom})` : note}:\n\n${content.trim()}`);

    const targets = findImports(content);
    if (targets.length === 0) return;
    if (hops >= maxHops) {
      for (const t of targets) {
        const target = resolveImport(t, path, home);
        problems.push({
          kind: 'too_deep',
          path: target,
          importedFrom: path,
          message: `${path} imports ${target}, ${hops + 1} hops from a CLAUDE.md; imports are followed ${maxHops} hops deep at most`,
        });
      }
      return;
    }
    for (const t of targets) await include(resolveImport(t, path, home), [...chain, path], hops + 1);
  }

  const userMemory = `${opts.userHome ?? HOME_DIR}/.claude/${MEMORY_FILE_NAME}`;
  const candidates = [userMemory, ...directoriesDownTo(cwd).flatMap((dir) => MEMORY_FILES_PER_DIR.map((name) => (dir === '/' ? `/${name}` : `${dir}/${name}`)))];
  // Every candidate is asked for at once (and the rules folder listed): nothing here writes, so the
  // answers are the ones a question at its turn would get, and a sandbox in another thread (the
  // page's worker) answers them back to back instead of one round trip each, in order.
  const asked = new Map(candidates.map((path) => [path, fs.stat(path).catch(() => null)] as const));
  const rules = ruleFiles(fs, `${normalizePath(cwd)}/${RULES_DIR}`);
  for (const path of candidates) await include(path, [], 0, path === userMemory ? " (the user's memory)" : '');
  for (const rule of await rules) await include(rule, [], 0, ' (a project rule)');
  return { text: sections.join('\n\n'), files, problems };
}

/** Every `.md` below `dir`, sorted, depth-first; none when the reader cannot list. */
async function ruleFiles(fs: MemoryFsReader, dir: string, depth = 0): Promise<string[]> {
  if (!fs.list || depth > 4) return [];
  let entries: { name: string; kind: string }[];
  try {
    entries = await fs.list(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of [...entries].sort((a, b) => byCodeUnits(a.name, b.name))) {
    const path = `${dir}/${e.name}`;
    if (e.kind === 'dir') out.push(...(await ruleFiles(fs, path, depth + 1)));
    else if (e.kind === 'file' && e.name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** A rule's `paths:` frontmatter (a list or one glob) and the body after it; `null` without frontmatter. */
function pathsFrontmatter(content: string): { paths: string[]; body: string } | null {
  const m = /^---\r?\n([^]*?)\r?\n---\r?\n?/.exec(content);
  if (!m) return null;
  const paths: string[] = [];
  const lines = m[1]!.split(/\r?\n/);
  lines.forEach((line, i) => {
    const inline = /^paths:\s*(.+)$/.exec(line);
    if (inline) paths.push(...inline[1]!.replace(/^\[|\]$/g, '').split(',').map((p) => p.trim().replace(/^["']|["']$/g, '')).filter(Boolean));
    else if (/^paths:\s*$/.test(line)) {
      for (const item of lines.slice(i + 1)) {
        const li = /^\s*-\s*(.+)$/.exec(item);
        if (!li) break;
        paths.push(li[1]!.trim().replace(/^["']|["']$/g, ''));
      }
    }
  });
  return { paths, body: content.slice(m[0].length) };
}
