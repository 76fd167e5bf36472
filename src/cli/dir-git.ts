/**
 * `--dir` and git: the folder's `.git` goes into the sandbox as it is, so `git log`, `git status`
 * and `git diff` work on a real project (the sandbox's git is isomorphic-git, which reads loose
 * objects, packs and the index). When `.git` is too large to carry in memory, or is a `.git` file
 * (a linked worktree or a submodule, whose objects live elsewhere), the sandbox starts a fresh
 * repository from the folder's files with one commit instead, and the runner says so: the agent's
 * `git diff` then shows exactly what the run changed. A folder without `.git` stays one, as Claude
 * Code sees it on disk (and start-up pays for no repository nobody asked for).
 *
 * The sandbox's file port takes text only, so the bytes travel as base64 through the sandbox's own
 * shell (`base64 -d` from here-documents, a large file as several appends), under a megabyte per command. Nothing under
 * `.git` is ever written back to the folder (see `writeBack`).
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Sandbox } from '../harness/ports.ts';
import { formatCount } from '../harness/util/index.ts';

/** Past this (bytes of `.git`, all files) the history is left out and a fresh repository is seeded. */
export const DEFAULT_MAX_GIT_BYTES = 20_000_000;
/** Past this many files under `.git` likewise (each is one here-document in the sandbox). */
export const DEFAULT_MAX_GIT_FILES = 5_000;
/**
 * Bytes per here-document: a multiple of 3, so each piece's base64 decodes alone, and small
 * enough that one command stays well under the sandbox shell's input limit (1,000,000 bytes in
 * just-bash) — a pack file of several megabytes goes in as several appends.
 */
const PIECE_BYTES = 300_000;
/** The most script text per sandbox command. */
const SCRIPT_CHARS = 800_000;

export type DirGit =
  | { kind: 'copy'; files: { path: string; bytes: Buffer }[]; totalBytes: number }
  /** A fresh repository from the files; `why` is the line the runner prints. */
  | { kind: 'seed'; why: string }
  /** No `.git`: no repository, as on disk. */
  | { kind: 'none' };

const toPosix = (p: string) => p.split(sep).join('/');
const kb = (n: number) => `${formatCount(Math.max(1, Math.round(n / 1024)))} KB`;

/** What to do about the folder's git: read its `.git` if it is small enough, else seed. */
export async function readDirGit(root: string, opts: { maxBytes?: number; maxFiles?: number } = {}): Promise<DirGit> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_GIT_BYTES;
  const maxFiles = opts.maxFiles ?? DEFAULT_MAX_GIT_FILES;
  const gitPath = join(root, '.git');
  const st = await lstat(gitPath).catch(() => null);
  if (!st) return { kind: 'none' };
  if (!st.isDirectory()) return { kind: 'seed', why: '.git is a file (a linked worktree or a submodule, its history lives elsewhere): the sandbox starts a fresh repository from the files (one commit) instead' };
  const found: { abs: string; path: string; size: number }[] = [];
  let total = 0;
  let over = false;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (over) return;
      const abs = join(dir, e.name);
      if (e.isDirectory()) await walk(abs);
      else if (e.isFile()) {
        const size = (await lstat(abs)).size;
        total += size;
        found.push({ abs, path: toPosix(relative(root, abs)), size });
        if (total > maxBytes || found.length > maxFiles) over = true;
      }
      // Symbolic links and sockets inside .git are not needed to read the history.
    }
  };
  await walk(gitPath);
  if (over) {
    const what = found.length > maxFiles ? `over ${formatCount(maxFiles)} files` : `over ${kb(maxBytes)}`;
    return { kind: 'seed', why: `.git is too large to carry into the sandbox (${what}): its history is left out and the sandbox starts a fresh repository from the files (one commit)` };
  }
  const files = await Promise.all(found.map(async (f) => ({ path: f.path, bytes: await readFile(f.abs) })));
  return { kind: 'copy', files, totalBytes: total };
}

/** The line the runner prints for a copied history. */
export function copiedLine(git: Extract<DirGit, { kind: 'copy' }>): string {
  return `kept the folder's git history: .git (${formatCount(git.files.length)} file${git.files.length === 1 ? '' : 's'}, ${kb(git.totalBytes)}) is in the sandbox; commits made there are not written back`;
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Writes the `.git` files into the sandbox's workdir, byte for byte. */
export async function copyGitIntoSandbox(sandbox: Sandbox, files: readonly { path: string; bytes: Buffer }[]): Promise<void> {
  const dirs = [...new Set(files.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))))].sort();
  let script = dirs.length > 0 ? `mkdir -p ${dirs.map(quote).join(' ')}\n` : '';
  const flush = async () => {
    if (!script) return;
    const r = await sandbox.exec(script, { cwd: sandbox.workdir, timeoutMs: 120_000 });
    script = '';
    if (r.exitCode !== 0) throw new Error(`copying .git into the sandbox failed (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
  };
  for (const f of files) {
    const pieces = Math.max(1, Math.ceil(f.bytes.length / PIECE_BYTES));
    for (let i = 0; i < pieces; i++) {
      const b64 = f.bytes.subarray(i * PIECE_BYTES, (i + 1) * PIECE_BYTES).toString('base64');
      // A here-document's terminator cannot occur in base64 (no underscores).
      const piece = `base64 -d ${i === 0 ? '>' : '>>'} ${quote(f.path)} <<'__HP_GIT__'\n${b64}\n__HP_GIT__\n`;
      if (script.length + piece.length > SCRIPT_CHARS) await flush();
      script += piece;
    }
  }
  await flush();
}
