/**
 * `--dir PATH`: a folder on disk as the sandbox's files, and (with `--write-back`) the sandbox's
 * changes written back to it after the run. Nothing here writes to disk unless asked to.
 *
 * Loading skips what an agent should not carry into an in-memory sandbox: `node_modules` and
 * `.git` folders, files over the size cap and files that are not text; each skip is a note the
 * runner prints. `.claude/settings.json` and `.claude/settings.local.json` are parsed as the
 * project and local settings scopes (a file that does not parse is an error naming the line);
 * `CLAUDE.md` travels as a file and the memory step reads it from the sandbox as usual.
 */
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Sandbox } from '../harness/ports.ts';
import { formatCount } from '../harness/util/index.ts';
import type { Settings } from '../harness/settings/index.ts';

export const SKIPPED_DIRS = new Set(['node_modules', '.git']);
export const DEFAULT_MAX_FILE_BYTES = 1_000_000;
export const DEFAULT_MAX_TOTAL_BYTES = 30_000_000;

export type LoadedDir = {
  root: string;
  /** Relative path (with `/`) → content. */
  files: Record<string, string>;
  /** One line per skipped file or folder, for stderr. */
  notes: string[];
  settings: { project?: Settings; local?: Settings };
};

export type LoadDirResult = { ok: true; dir: LoadedDir } | { ok: false; problem: string };

const toPosix = (p: string) => p.split(sep).join('/');

function looksBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, 8_000);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

export async function loadDir(root: string, opts: { maxFileBytes?: number; maxTotalBytes?: number } = {}): Promise<LoadDirResult> {
  const maxFile = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = opts.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const st = await lstat(root).catch(() => null);
  if (!st || !st.isDirectory()) return { ok: false, problem: `--dir ${root}: no such folder` };
  const files: Record<string, string> = {};
  const notes: string[] = [];
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const abs = join(dir, e.name);
      const rel = toPosix(relative(root, abs));
      if (e.isDirectory()) {
        // The folder's own .git is dir-git.ts's (copied or seeded, with its own line); a nested one is skipped.
        if (SKIPPED_DIRS.has(e.name)) {
          if (rel !== '.git') notes.push(`skipped ${rel}/ (not copied into the sandbox)`);
        }
        else await walk(abs);
        continue;
      }
      if (e.isSymbolicLink()) {
        notes.push(`skipped ${rel} (a symbolic link)`);
        continue;
      }
      if (!e.isFile()) continue;
      // A `.git` file (linked worktree, submodule) points outside the folder: dir-git.ts seeds instead.
      if (rel === '.git') continue;
      const size = (await lstat(abs)).size;
      if (size > maxFile) {
        notes.push(`skipped ${rel} (${formatCount(size)} bytes, over the ${formatCount(maxFile)}-byte cap)`);
        continue;
      }
      if (total + size > maxTotal) {
        notes.push(`skipped ${rel} (the folder is over ${formatCount(maxTotal)} bytes in all)`);
        continue;
      }
      const buf = await readFile(abs);
      if (looksBinary(buf)) {
        notes.push(`skipped ${rel} (not a text file)`);
        continue;
      }
      total += size;
      files[rel] = buf.toString('utf8');
    }
  };
  await walk(root);

  const settings: LoadedDir['settings'] = {};
  for (const [scope, name] of [
    ['project', '.claude/settings.json'],
    ['local', '.claude/settings.local.json'],
  ] as const) {
    const text = files[name];
    if (text === undefined) continue;
    // The settings parser (zod, yaml) only for a folder that has a settings file.
    const { parseSettings } = await import('../harness/settings/index.ts');
    const parsed = parseSettings(text, 'json');
    if (!parsed.ok) {
      const where = parsed.errors.map((e) => `  line ${e.line}, column ${e.column}: ${e.message}`).join('\n');
      return { ok: false, problem: `${join(root, name)} is not valid settings:\n${where}\nFix the file, or move it aside to run without it.` };
    }
    settings[scope] = parsed.settings;
  }
  return { ok: true, dir: { root, files, notes, settings } };
}

/** Every file under the sandbox's workdir, relative path → content. */
export async function sandboxFiles(sandbox: Sandbox): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const e of await sandbox.fs.list(dir)) {
      const abs = `${dir}/${e.name}`;
      // The sandbox's .git (copied or seeded) is never written back, so it is not read here either.
      if (e.kind === 'dir') {
        if (!SKIPPED_DIRS.has(e.name)) await walk(abs);
      }
      else if (e.kind === 'file') out[abs.slice(sandbox.workdir.length + 1)] = await sandbox.fs.readFile(abs);
    }
  };
  await walk(sandbox.workdir);
  return out;
}

export type WriteBackReport = { written: string[]; deleted: string[] };

/**
 * Writes the sandbox's changes back to the folder: files that changed or are new, and deletes
 * files the run removed — only among those it loaded (a skipped file is never touched).
 */
export async function writeBack(dir: LoadedDir, after: Record<string, string>): Promise<WriteBackReport> {
  const written: string[] = [];
  const deleted: string[] = [];
  for (const [rel, content] of Object.entries(after)) {
    if (rel.split('/').some((part) => part === '..' || SKIPPED_DIRS.has(part))) continue;
    if (dir.files[rel] === content) continue;
    const abs = join(dir.root, ...rel.split('/'));
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, content);
    written.push(rel);
  }
  for (const rel of Object.keys(dir.files)) {
    if (after[rel] !== undefined) continue;
    await rm(join(dir.root, ...rel.split('/')), { force: true });
    deleted.push(rel);
  }
  return { written, deleted };
}
