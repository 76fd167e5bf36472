/**
 * What every git subcommand gets: isomorphic-git, the file system it reads, the repository
 * root, and path helpers between the user's cwd-relative paths and the repo-relative paths
 * git itself stores.
 */
import type * as IsoGit from 'isomorphic-git';
import type { IFileSystem } from 'just-bash';
import { isInside, normalizePath, relativeTo, resolvePath } from '../../../harness/util/index.ts';
import type { GitFs } from './git-fs.ts';

export type GitResult = { stdout: string; stderr: string; exitCode: number };

export type GitCtx = {
  git: typeof IsoGit;
  fs: GitFs;
  raw: IFileSystem;
  /** The working tree root (holding `.git`), or null outside a repository. */
  dir: string | null;
  /**
   * The repository's own directory for this working tree: `<dir>/.git`, or for a linked worktree
   * (`.git` is a file `gitdir: …`) `<main>/.git/worktrees/<name>`. Null outside a repository.
   */
  gitdir: string | null;
  /** Where objects, refs and config live: the main `.git` (the same as `gitdir` outside a linked worktree). */
  commonDir: string | null;
  cwd: string;
  env: Record<string, string>;
};

export type RepoCtx = GitCtx & { dir: string; gitdir: string; commonDir: string };

export const ok = (stdout = ''): GitResult => ({ stdout, stderr: '', exitCode: 0 });
export const fatal = (message: string, exitCode = 128): GitResult => ({ stdout: '', stderr: `fatal: ${message}\n`, exitCode });
export const usage = (message: string): GitResult => ({ stdout: '', stderr: `error: ${message}\n`, exitCode: 129 });

/** A user path (relative to cwd) as git's repo-relative path, or null when outside the repo. */
export function repoPath(ctx: RepoCtx, userPath: string): string | null {
  const abs = resolvePath(ctx.cwd, userPath);
  if (!isInside(ctx.dir, abs) && abs !== ctx.dir) return null;
  const rel = relativeTo(ctx.dir, abs);
  return rel === '' || rel === '.' ? '.' : rel;
}

/** A repo-relative path as the user sees it from cwd (what `git status` prints), `../` included. */
export function shownPath(ctx: RepoCtx, filepath: string): string {
  const from = normalizePath(ctx.cwd).split('/').filter(Boolean);
  const to = normalizePath(`${ctx.dir}/${filepath}`).split('/').filter(Boolean);
  let i = 0;
  while (i < from.length && i < to.length && from[i] === to[i]) i++;
  const rel = [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
  return rel === '' ? '.' : rel;
}

/** Whether a repo-relative file is selected by pathspecs (already repo-relative; '.' = all). */
export function inSpecs(filepath: string, specs: string[]): boolean {
  if (specs.length === 0) return true;
  return specs.some((s) => s === '.' || filepath === s || filepath.startsWith(`${s.replace(/\/$/, '')}/`));
}

export async function currentBranch(ctx: RepoCtx): Promise<string | undefined> {
  return (await ctx.git.currentBranch({ fs: ctx.fs, dir: ctx.dir, fullname: false })) ?? undefined;
}

export async function headOid(ctx: RepoCtx): Promise<string | null> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: 'HEAD' });
  } catch {
    return null;
  }
}

/** The commit a branch, tag, `HEAD` or (short) commit id names, or null when it names none. */
export async function revOid(ctx: RepoCtx, rev: string): Promise<string | null> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: rev });
  } catch {
    try {
      return await ctx.git.expandOid({ fs: ctx.fs, dir: ctx.dir, oid: rev });
    } catch {
      return null;
    }
  }
}

/** The author for a commit: env, then repo config, then ~/.gitconfig, then a default. */
export async function author(ctx: RepoCtx): Promise<{ name: string; email: string }> {
  const fromConfig = async (key: string) => ((await ctx.git.getConfig({ fs: ctx.fs, dir: ctx.dir, path: key })) as string | undefined) ?? undefined;
  const globalCfg = await readGlobalConfig(ctx);
  return {
    name: ctx.env.GIT_AUTHOR_NAME ?? (await fromConfig('user.name')) ?? globalCfg['user.name'] ?? 'Sandbox User',
    email: ctx.env.GIT_AUTHOR_EMAIL ?? (await fromConfig('user.email')) ?? globalCfg['user.email'] ?? 'user@sandbox.local',
  };
}

export function globalConfigPath(ctx: GitCtx): string {
  return `${(ctx.env.HOME ?? '/').replace(/\/$/, '')}/.gitconfig`;
}

/** `~/.gitconfig` as flat `section.key` → value (what `git config --global` writes). */
export async function readGlobalConfig(ctx: GitCtx): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await ctx.raw.readFile(globalConfigPath(ctx));
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  let section = '';
  for (const line of text.split('\n')) {
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (head) section = head[1]!.trim().toLowerCase();
    const kv = /^\s*([\w.-]+)\s*=\s*(.*)$/.exec(line);
    if (kv && section) out[`${section}.${kv[1]!.toLowerCase()}`] = kv[2]!.replace(/^"(.*)"$/, '$1');
  }
  return out;
}
