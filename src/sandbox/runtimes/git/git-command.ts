/**
 * The `git` shell command over isomorphic-git and the sandbox files: init, status, add, rm,
 * commit, log, show, diff, branch, checkout, switch, restore, reset, rev-parse, config, worktree,
 * merge (without conflict markers) — the subset agents use — with output close to git's.
 * Global `-C <dir>` and `-c k=v` (ignored) are accepted. Anything else (remotes, rebase, stash, …) fails naming what is missing.
 * Inside a linked worktree (`.git` is a file) the commands work on that worktree's HEAD and index.
 */
import type { Command, ExecResult } from 'just-bash';
import { resolvePath } from '../../../harness/util/index.ts';
import type { RuntimeHooks } from '../hooks.ts';
import type { GitCtx, GitResult, RepoCtx } from './context.ts';
import { fatal } from './context.ts';
import { gitDiff } from './diff.ts';
import { gitFs, type LinkedGitdir } from './git-fs.ts';
import { gitCommit, gitLog, gitShow } from './history.ts';
import { gitBranch, gitCheckout, gitConfig, gitInit, gitRevParse } from './refs.ts';
import { gitAdd, gitReset, gitRestore, gitRm } from './staging.ts';
import { gitMerge } from './merge.ts';
import { gitStatus } from './status.ts';
import { gitWorktree } from './worktree.ts';

const IN_REPO: Record<string, (ctx: RepoCtx, args: string[]) => Promise<GitResult>> = {
  status: gitStatus,
  add: gitAdd,
  rm: gitRm,
  commit: gitCommit,
  log: gitLog,
  show: gitShow,
  diff: gitDiff,
  branch: gitBranch,
  checkout: (c, a) => gitCheckout(c, a, 'checkout'),
  switch: (c, a) => gitCheckout(c, a, 'switch'),
  restore: gitRestore,
  reset: gitReset,
  'rev-parse': gitRevParse,
  worktree: gitWorktree,
  merge: gitMerge,
};

/**
 * Commands whose `-q` / `--quiet` leaves only errors and warnings (git's manual for each): on
 * success their feedback ("Initialized empty Git repository…", "Switched to branch…", "rm 'f'",
 * "Unstaged changes after reset:", a merge's summary) is dropped here, once, rather than in every
 * command. `commit -q` is handled in `history.ts`; `branch` is not listed (its listing is not feedback).
 */
const QUIET_DROPS_FEEDBACK = new Set(['init', 'checkout', 'switch', 'merge', 'reset', 'rm', 'restore', 'worktree']);

/** `-q` / `--quiet` among the options (before a `--`, after which words are paths). */
function quietRequested(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '-q' || a === '--quiet');
}

/** On success under `-q`, the command says nothing (a failure keeps its message). */
function quieted(sub: string, args: string[], r: GitResult): GitResult {
  return r.exitCode === 0 && QUIET_DROPS_FEEDBACK.has(sub) && quietRequested(args) ? { ...r, stdout: '', stderr: '' } : r;
}

const NETWORK = new Set(['clone', 'fetch', 'pull', 'push', 'remote', 'submodule', 'ls-remote']);
const UNSUPPORTED = new Set(['rebase', 'stash', 'cherry-pick', 'revert', 'tag', 'blame', 'bisect', 'reflog', 'clean', 'mv', 'am', 'apply', 'grep', 'describe']);
const SUPPORTED_LIST = 'init, status, add, rm, commit, log, show, diff, branch, checkout, switch, restore, reset, rev-parse, config, worktree, merge';

async function findRoot(ctx: GitCtx): Promise<string | null> {
  try {
    return await ctx.git.findRoot({ fs: ctx.fs, filepath: ctx.cwd });
  } catch {
    return null;
  }
}

/** When `<dir>/.git` is a file (`gitdir: …`, a linked worktree), its git directory and the common one. */
export async function linkedGitdir(raw: GitCtx['raw'], dir: string): Promise<LinkedGitdir | null> {
  const dotgit = `${dir}/.git`;
  const st = await raw.stat(dotgit).catch(() => null);
  if (!st?.isFile) return null;
  const line = /^gitdir:\s*(.+)$/m.exec(await raw.readFile(dotgit))?.[1]?.trim();
  if (!line) return null;
  const gitdir = resolvePath(dir, line);
  const common = await raw.readFile(`${gitdir}/commondir`).then((c) => resolvePath(gitdir, c.trim()), () => gitdir);
  return { gitdir, common };
}

export function createGitCommand(hooks: RuntimeHooks): Command {
  return {
    name: 'git',
    async execute(argv, cmdCtx): Promise<ExecResult> {
      let cwd = cmdCtx.cwd;
      let i = 0;
      for (; i < argv.length; i++) {
        const a = argv[i]!;
        if (a === '-C') cwd = resolvePath(cwd, argv[++i] ?? '.');
        else if (a === '-c') i++;
        else if (a === '--no-pager' || a === '--no-optional-locks' || a === '-P') continue;
        else if (a === '--version') return { stdout: 'git version 2.47.0 (isomorphic-git sandbox)\n', stderr: '', exitCode: 0 };
        else break;
      }
      const sub = argv[i];
      const args = argv.slice(i + 1);
      if (sub === undefined || sub === 'help' || sub === '--help') {
        return { stdout: `usage: git <command> [<args>]\n\nIn the sandbox: ${SUPPORTED_LIST}\n`, stderr: '', exitCode: sub === undefined ? 1 : 0 };
      }
      if (NETWORK.has(sub)) return fatal(`'git ${sub}' is not available in the sandbox: it is offline and has no remotes. Supported: ${SUPPORTED_LIST}.`);
      if (UNSUPPORTED.has(sub)) return fatal(`'git ${sub}' is not supported by the sandbox's git (isomorphic-git). Supported: ${SUPPORTED_LIST}.`, 1);
      const mod = await import('isomorphic-git');
      // The CommonJS build (Node, the runner's split bundle) arrives as a namespace with only `default`.
      const git = (typeof mod.init === 'function' ? mod : (mod as unknown as { default: typeof mod }).default);
      const raw = hooks.fs?.() ?? cmdCtx.fs;
      const env: Record<string, string> = {};
      for (const [k, v] of cmdCtx.env) env[k] = v;
      const base: GitCtx = { git, fs: gitFs(raw), raw, dir: null, gitdir: null, commonDir: null, cwd, env };
      if (!(await raw.exists(cwd))) return fatal(`cannot change to '${cwd}': No such file or directory`);
      base.dir = await findRoot(base);
      if (base.dir) {
        const linked = await linkedGitdir(raw, base.dir);
        if (linked) Object.assign(base, { fs: gitFs(raw, linked), gitdir: linked.gitdir, commonDir: linked.common });
        else Object.assign(base, { gitdir: `${base.dir}/.git`, commonDir: `${base.dir}/.git` });
      }
      try {
        if (sub === 'init') return quieted(sub, args, await gitInit(base, args));
        if (sub === 'config') return await gitConfig(base, args);
        const run = IN_REPO[sub];
        if (!run) return { stdout: '', stderr: `git: '${sub}' is not a git command. See 'git --help'.\n(The sandbox's git supports: ${SUPPORTED_LIST}.)\n`, exitCode: 1 };
        if (!base.dir) return fatal('not a git repository (or any of the parent directories): .git');
        return quieted(sub, args, await run({ ...base, dir: base.dir, gitdir: base.gitdir!, commonDir: base.commonDir! }, args));
      } catch (err) {
        return fatal(`git ${sub} failed in the sandbox: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
