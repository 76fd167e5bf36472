/**
 * CLAUDE.md discovery: the project memory files Claude Code reads at start-up. One `CLAUDE.md`
 * per directory from the root down to the working directory (`/CLAUDE.md`, `/home/CLAUDE.md`,
 * `/home/project/CLAUDE.md`, …), root first, so the more specific file comes later and wins
 * where they disagree. Each file is followed by the files it imports (`@path`, up to
 * {@link MAX_IMPORT_HOPS} hops). Nothing here throws on a bad tree: missing imports, cycles,
 * over-deep chains and unreadable files come back as `problems`.
 */
import { WORKDIR, type SandboxFs } from '../ports.ts';
import type { MemoryFileInfo, MemoryProblem } from '../trace.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import { normalizePath } from '../util/paths.ts';
import { findImports, resolveImport } from './imports.ts';

export const MEMORY_FILE_NAME = 'CLAUDE.md';
/** Claude Code follows imports at most this many hops from a directory's CLAUDE.md. */
export const MAX_IMPORT_HOPS = 4;
/** Files beyond this are cut (Claude Code warns above 40k characters). */
export const MAX_FILE_CHARS = 40_000;

/** What discovery needs from a file system: the sandbox's, or a scenario's files (`recordReader`). */
export type MemoryFsReader = Pick<SandboxFs, 'readFile' | 'stat'>;

export type ClaudeMdOptions = {
  /** What `~/` means in an import; default the project directory. */
  home?: string;
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
  async function include(path: string, chain: string[], hops: number): Promise<void> {
    const importedFrom = chain.at(-1);
    const from = importedFrom ? { importedFrom } : {};
    if (chain.includes(path)) {
      problems.push({ kind: 'cycle', path, ...from, message: `import cycle: ${[...chain, path].join(' → ')} (not followed again)` });
      return;
    }
    // Imported twice by different files (a diamond): shown once, where it first appeared.
    if (included.has(path)) return;
    const stat = await fs.stat(path).catch(() => null);
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
    sections.push(`Contents of ${path}${importedFrom ? ` (imported by ${importedFrom})` : ''}:\n\n${content.trim()}`);

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

  for (const dir of directoriesDownTo(cwd)) {
    await include(dir === '/' ? `/${MEMORY_FILE_NAME}` : `${dir}/${MEMORY_FILE_NAME}`, [], 0);
  }
  return { text: sections.join('\n\n'), files, problems };
}
