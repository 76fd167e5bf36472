/**
 * `git worktree add | list | remove | prune`: more working trees of one repository, each on its
 * own branch, laid out as git lays them out, so the real git CLI would read them too:
 *
 * - `<path>/.git` is a file, `gitdir: <main>/.git/worktrees/<name>`;
 * - that directory holds the worktree's own `HEAD` and `index`, `commondir` (`../..`) and
 *   `gitdir` (back to `<path>/.git`); objects, refs and config stay in the main `.git`
 *   (`git-fs.ts` sends isomorphic-git there).
 *
 * The harness's git-backed isolated workspaces are made and removed with these commands
 * (`src/sandbox/git-port.ts`).
 */
import { basename as basenameOf, resolvePath } from '../../../harness/util/index.ts';
import type { GitResult, RepoCtx } from './context.ts';
import { fatal, ok, usage } from './context.ts';
import { gitFs } from './git-fs.ts';
import { statusRows, classify } from './status.ts';

type Worktree = { path: string; head: string | null; branch: string | null; name: string | null };

const SUPPORTED = 'add [-b <new-branch>] [--detach] <path> [<commit-ish>], list [--porcelain], remove [--force] <path>, prune';

function mainPath(ctx: RepoCtx): string {
  return ctx.commonDir.replace(/\/\.git$/, '');
}

async function readHead(ctx: RepoCtx, gitdir: string): Promise<{ head: string | null; branch: string | null }> {
  const text = (await ctx.raw.readFile(`${gitdir}/HEAD`).catch(() => '')).trim();
  const ref = /^ref:\s*(\S+)$/.exec(text)?.[1];
  if (!ref) return { head: /^[0-9a-f]{40}$/.test(text) ? text : null, branch: null };
  const head = await ctx.git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref }).catch(() => null);
  return { head, branch: ref.replace(/^refs\/heads\//, '') };
}

/** Every working tree of the repository: the main one first, then the linked ones by name. */
export async function listWorktrees(ctx: RepoCtx): Promise<Worktree[]> {
  const out: Worktree[] = [{ path: mainPath(ctx), name: null, ...(await readHead(ctx, ctx.commonDir)) }];
  const root = `${ctx.commonDir}/worktrees`;
  const names = (await ctx.raw.readdir(root).catch(() => [] as string[])).sort();
  for (const name of names) {
    const pointer = (await ctx.raw.readFile(`${root}/${name}/gitdir`).catch(() => '')).trim();
    if (!pointer) continue;
    out.push({ path: pointer.replace(/\/\.git$/, ''), name, ...(await readHead(ctx, `${root}/${name}`)) });
  }
  return out;
}

/** The working tree that has `branch` checked out, if any. */
export async function checkedOutAt(ctx: RepoCtx, branch: string): Promise<string | null> {
  return (await listWorktrees(ctx)).find((w) => w.branch === branch)?.path ?? null;
}

async function resolveCommit(ctx: RepoCtx, rev: string): Promise<string | null> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: rev });
  } catch {
    return ctx.git.expandOid({ fs: ctx.fs, dir: ctx.dir, oid: rev }).catch(() => null);
  }
}

async function add(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let newBranch: string | null = null;
  let forceBranch = false;
  let detach = false;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-b' || a === '-B') {
      newBranch = args[++i] ?? null;
      forceBranch = a === '-B';
      if (!newBranch) return usage(`switch \`${a.slice(1)}' requires a value`);
    } else if (a === '--detach' || a === '-d') detach = true;
    else if (a === '-q' || a === '--quiet' || a === '--') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git worktree add in the sandbox (supported: ${SUPPORTED})`);
    else rest.push(a);
  }
  const [pathArg, rev] = rest;
  if (!pathArg) return usage(`git worktree add needs a path (supported: ${SUPPORTED})`);
  const path = resolvePath(ctx.cwd, pathArg);
  if ((await ctx.raw.exists(path)) && (await ctx.raw.readdir(path).catch(() => ['?'])).length > 0) return fatal(`'${pathArg}' already exists`);
  const branches = await ctx.git.listBranches({ fs: ctx.fs, dir: ctx.dir });
  // Like git: without -b or a branch to check out, a new branch named after the folder.
  if (!newBranch && !detach && (!rev || !branches.includes(rev))) newBranch = basenameOf(path);
  const start = await resolveCommit(ctx, rev ?? 'HEAD');
  if (!start) return fatal(rev ? `invalid reference: ${rev}` : 'not a valid object name: \'HEAD\' (the repository has no commit yet)');
  let branch: string | null = null;
  if (newBranch) {
    if (branches.includes(newBranch) && !forceBranch) return fatal(`a branch named '${newBranch}' already exists`);
    const user = await checkedOutAt(ctx, newBranch);
    if (user) return fatal(`'${newBranch}' is already used by worktree at '${user}'`);
    await ctx.git.branch({ fs: ctx.fs, dir: ctx.dir, ref: newBranch, object: start, force: forceBranch });
    branch = newBranch;
  } else if (!detach) {
    const user = await checkedOutAt(ctx, rev!);
    if (user) return fatal(`'${rev}' is already used by worktree at '${user}'`);
    branch = rev!;
  }
  // The worktree's own directory is named after the folder, made unique as git does.
  const base = basenameOf(path).replace(/[^A-Za-z0-9._-]/g, '_') || 'worktree';
  let name = base;
  for (let n = 1; await ctx.raw.exists(`${ctx.commonDir}/worktrees/${name}`); n++) name = `${base}${n}`;
  const gitdir = `${ctx.commonDir}/worktrees/${name}`;
  await ctx.raw.mkdir(gitdir, { recursive: true });
  await ctx.raw.writeFile(`${gitdir}/HEAD`, branch ? `ref: refs/heads/${branch}\n` : `${start}\n`);
  await ctx.raw.writeFile(`${gitdir}/commondir`, '../..\n');
  await ctx.raw.writeFile(`${gitdir}/gitdir`, `${path}/.git\n`);
  await ctx.raw.mkdir(path, { recursive: true });
  await ctx.raw.writeFile(`${path}/.git`, `gitdir: ${gitdir}\n`);
  const fs = gitFs(ctx.raw, { gitdir, common: ctx.commonDir });
  await ctx.git.checkout({ fs, dir: path, ref: branch ?? start, force: true });
  const { commit } = await ctx.git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid: start });
  const preparing = newBranch ? `(new branch '${newBranch}')` : branch ? `(checking out '${branch}')` : `(detached HEAD ${start.slice(0, 7)})`;
  return { stdout: `HEAD is now at ${start.slice(0, 7)} ${commit.message.split('\n')[0]}\n`, stderr: `Preparing worktree ${preparing}\n`, exitCode: 0 };
}

async function list(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const porcelain = args.includes('--porcelain');
  const bad = args.find((a) => a !== '--porcelain');
  if (bad) return usage(`unknown option \`${bad}' for git worktree list in the sandbox (supported: ${SUPPORTED})`);
  const all = await listWorktrees(ctx);
  if (porcelain) {
    return ok(all.map((w) => `worktree ${w.path}\n${w.head ? `HEAD ${w.head}\n` : ''}${w.branch ? `branch refs/heads/${w.branch}\n` : 'detached\n'}\n`).join(''));
  }
  const width = Math.max(...all.map((w) => w.path.length));
  return ok(all.map((w) => `${w.path.padEnd(width)}  ${w.head ? w.head.slice(0, 7) : '0000000'} ${w.branch ? `[${w.branch}]` : '(detached HEAD)'}\n`).join(''));
}

async function remove(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const force = args.includes('--force') || args.includes('-f');
  const rest = args.filter((a) => a !== '--force' && a !== '-f');
  const bad = rest.find((a) => a.startsWith('-'));
  if (bad) return usage(`unknown option \`${bad}' for git worktree remove in the sandbox (supported: ${SUPPORTED})`);
  if (rest.length !== 1) return usage(`git worktree remove takes one path (supported: ${SUPPORTED})`);
  const path = resolvePath(ctx.cwd, rest[0]!);
  const all = await listWorktrees(ctx);
  if (all[0]!.path === path) return fatal(`'${rest[0]}' is a main working tree`);
  const wt = all.find((w) => w.path === path);
  if (!wt) return fatal(`'${rest[0]}' is not a working tree`);
  const gitdir = `${ctx.commonDir}/worktrees/${wt.name}`;
  if (!force && (await ctx.raw.exists(path))) {
    const inside = { ...ctx, dir: path, gitdir, fs: gitFs(ctx.raw, { gitdir, common: ctx.commonDir }) };
    if ((await statusRows(inside)).flatMap(classify).length > 0) return fatal(`'${rest[0]}' contains modified or untracked files, use --force to delete it`);
  }
  await ctx.raw.rm(path, { recursive: true, force: true });
  await ctx.raw.rm(gitdir, { recursive: true, force: true });
  return ok();
}

/** Forgets worktrees whose folder is gone. */
async function prune(ctx: RepoCtx): Promise<GitResult> {
  for (const w of (await listWorktrees(ctx)).slice(1)) {
    if (!(await ctx.raw.exists(w.path))) await ctx.raw.rm(`${ctx.commonDir}/worktrees/${w.name}`, { recursive: true, force: true });
  }
  return ok();
}

export async function gitWorktree(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const [sub, ...rest] = args;
  if (sub === 'add') return add(ctx, rest);
  if (sub === 'list') return list(ctx, rest);
  if (sub === 'remove') return remove(ctx, rest);
  if (sub === 'prune') return prune(ctx);
  return usage(`${sub ? `unknown subcommand '${sub}' for` : 'missing subcommand for'} git worktree in the sandbox (supported: ${SUPPORTED})`);
}
