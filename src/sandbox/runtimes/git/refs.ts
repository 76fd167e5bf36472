/**
 * `git init`, `git branch`, `git checkout` / `git switch`, `git rev-parse` and `git config`:
 * the commands about where HEAD points and how the repository is set up.
 */
import type { GitCtx, GitResult, RepoCtx } from './context.ts';
import { currentBranch, fatal, globalConfigPath, headOid, ok, readGlobalConfig, repoPath, revOid, usage } from './context.ts';
import { checkoutFilesFrom, restoreFiles } from './staging.ts';
import { checkedOutAt } from './worktree.ts';
import { classify, statusRows } from './status.ts';

export async function gitInit(ctx: GitCtx, args: string[]): Promise<GitResult> {
  let branch = 'main';
  let target = ctx.cwd;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-b' || a === '--initial-branch') branch = args[++i] ?? branch;
    else if (a.startsWith('--initial-branch=')) branch = a.slice(17);
    else if (a === '-q' || a === '--quiet') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git init in the sandbox (supported: [-b <branch>] [<dir>])`);
    else target = a.startsWith('/') ? a : `${ctx.cwd}/${a}`.replace(/\/\.$/, '');
  }
  const existed = await ctx.raw.exists(`${target}/.git`);
  await ctx.raw.mkdir(target, { recursive: true });
  if (!existed) await ctx.git.init({ fs: ctx.fs, dir: target, defaultBranch: branch });
  return ok(`${existed ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${target.replace(/\/$/, '')}/.git/\n`);
}

export async function gitBranch(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const { git } = ctx;
  const current = await currentBranch(ctx);
  if (args.includes('--show-current')) return ok(current ? `${current}\n` : '');
  const del = args.find((a) => a === '-d' || a === '-D' || a === '--delete');
  const names = args.filter((a) => !a.startsWith('-'));
  const bad = args.find((a) => a.startsWith('-') && !['-d', '-D', '--delete', '--list', '-l', '-a', '--all', '-v', '--no-color'].includes(a));
  if (bad) return usage(`unknown option \`${bad}' for git branch in the sandbox (supported: [<name> [<start>]], -d <name>, --show-current, --list)`);
  if (del) {
    if (names.length === 0) return fatal('branch name required');
    const out: string[] = [];
    for (const name of names) {
      if (name === current) return { stdout: '', stderr: `error: cannot delete branch '${name}' used by worktree at '${ctx.dir}'\n`, exitCode: 1 };
      const user = await checkedOutAt(ctx, name);
      if (user) return { stdout: '', stderr: `error: cannot delete branch '${name}' used by worktree at '${user}'\n`, exitCode: 1 };
      let oid: string;
      try {
        oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${name}` });
      } catch {
        return { stdout: '', stderr: `error: branch '${name}' not found\n`, exitCode: 1 };
      }
      await git.deleteBranch({ fs: ctx.fs, dir: ctx.dir, ref: name });
      out.push(`Deleted branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return ok(out.join(''));
  }
  if (names.length > 0 && !args.includes('--list') && !args.includes('-l')) {
    const [name, start] = names;
    if (!(await headOid(ctx)) && !start) return fatal(`not a valid object name: '${current ?? 'main'}'`);
    const existing = await git.listBranches({ fs: ctx.fs, dir: ctx.dir });
    if (existing.includes(name!)) return fatal(`a branch named '${name}' already exists`);
    const object = start ? await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: start }).catch(() => null) : undefined;
    if (object === null) return fatal(`not a valid object name: '${start}'`);
    await git.branch({ fs: ctx.fs, dir: ctx.dir, ref: name!, ...(object ? { object } : {}) });
    return ok();
  }
  const branches = (await git.listBranches({ fs: ctx.fs, dir: ctx.dir })).sort();
  return ok(branches.map((b) => `${b === current ? '*' : ' '} ${b}\n`).join(''));
}

export async function gitCheckout(ctx: RepoCtx, args: string[], command: 'checkout' | 'switch'): Promise<GitResult> {
  const { git } = ctx;
  const dashes = args.indexOf('--');
  if (command === 'checkout' && dashes >= 0) {
    const paths = args.slice(dashes + 1);
    const specs = paths.map((p) => repoPath(ctx, p) ?? p);
    const revs = args.slice(0, dashes).filter((a) => !a.startsWith('-'));
    if (revs.length > 1) return usage(`git checkout takes one branch or commit before \`--' (got ${revs.join(', ')})`);
    // `git checkout <branch|commit> -- <paths>` takes the files from there; without one, from the index.
    return revs[0] ? checkoutFilesFrom(ctx, revs[0], specs, paths) : restoreFiles(ctx, specs, paths);
  }
  const create = args.find((a) => a === '-b' || a === '-B' || a === '-c' || a === '-C' || a === '--create');
  const rest = args.filter((a) => !a.startsWith('-'));
  const bad = args.find((a) => a.startsWith('-') && a !== create && a !== '-q' && a !== '--quiet');
  if (bad) return usage(`unknown option \`${bad}' for git ${command} in the sandbox (supported: <branch>, -b/-c <new-branch>, -- <paths>)`);
  const target = rest[0];
  if (!target) return fatal(command === 'switch' ? 'missing branch or commit argument' : 'you must name a branch or paths to check out');
  const branches = await git.listBranches({ fs: ctx.fs, dir: ctx.dir });
  if (create) {
    if (branches.includes(target) && create !== '-B' && create !== '-C') return fatal(`a branch named '${target}' already exists`);
    if (!(await headOid(ctx))) {
      // No commits yet: only HEAD moves, as git does on an unborn branch.
      await ctx.raw.writeFile(`${ctx.gitdir}/HEAD`, `ref: refs/heads/${target}\n`);
      return { stdout: '', stderr: `Switched to a new branch '${target}'\n`, exitCode: 0 };
    }
    const start = rest[1] ? await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: rest[1] }).catch(() => null) : undefined;
    if (start === null) return fatal(`'${rest[1]}' is not a commit and a branch '${target}' cannot be created from it`);
    await git.branch({ fs: ctx.fs, dir: ctx.dir, ref: target, force: true, ...(start ? { object: start } : {}) });
    if (start) await git.checkout({ fs: ctx.fs, dir: ctx.dir, ref: target });
    else await ctx.raw.writeFile(`${ctx.gitdir}/HEAD`, `ref: refs/heads/${target}\n`);
    return { stdout: '', stderr: `Switched to a new branch '${target}'\n`, exitCode: 0 };
  }
  // `git checkout <branch|commit> <paths>` (no `--`): the files from there, HEAD stays.
  if (command === 'checkout' && rest.length > 1 && (await revOid(ctx, target))) {
    const paths = rest.slice(1);
    return checkoutFilesFrom(ctx, target, paths.map((p) => repoPath(ctx, p) ?? p), paths);
  }
  if (!branches.includes(target)) {
    if (command === 'checkout' && (await ctx.raw.exists(`${ctx.cwd}/${target}`))) {
      const paths = rest;
      return restoreFiles(ctx, paths.map((p) => repoPath(ctx, p) ?? p), paths);
    }
    return { stdout: '', stderr: `error: pathspec '${target}' did not match any file(s) known to git\n`, exitCode: 1 };
  }
  if ((await currentBranch(ctx)) === target) return { stdout: '', stderr: `Already on '${target}'\n`, exitCode: 0 };
  const dirty = (await statusRows(ctx)).flatMap(classify).filter((s) => s.index !== '?' && (s.index !== ' ' || s.worktree !== ' '));
  try {
    await git.checkout({ fs: ctx.fs, dir: ctx.dir, ref: target });
  } catch (err) {
    const files = dirty.map((s) => `\t${s.path}`).join('\n');
    return {
      stdout: '',
      stderr: `error: Your local changes to the following files would be overwritten by checkout:\n${files}\nPlease commit your changes or stash them before you switch branches.\nAborting\n(${err instanceof Error ? err.message : String(err)})\n`,
      exitCode: 1,
    };
  }
  const carried = dirty.map((s) => `${s.index === ' ' ? s.worktree : s.index}\t${s.path}\n`).join('');
  return { stdout: carried, stderr: `Switched to branch '${target}'\n`, exitCode: 0 };
}

export async function gitRevParse(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const out: string[] = [];
  let abbrev = false;
  let short = false;
  for (const a of args) {
    if (a === '--abbrev-ref') abbrev = true;
    else if (a === '--short') short = true;
    else if (a === '--show-toplevel') out.push(ctx.dir);
    else if (a === '--is-inside-work-tree') out.push('true');
    else if (a === '--git-dir') out.push(ctx.gitdir !== `${ctx.dir}/.git` ? ctx.gitdir : ctx.cwd === ctx.dir ? '.git' : ctx.gitdir);
    else if (a === '--git-common-dir') out.push(ctx.commonDir === `${ctx.dir}/.git` && ctx.cwd === ctx.dir ? '.git' : ctx.commonDir);
    else if (a === '--show-prefix') out.push(ctx.cwd === ctx.dir ? '' : `${ctx.cwd.slice(ctx.dir.length + 1)}/`);
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git rev-parse in the sandbox (supported: HEAD, <ref>, --short, --abbrev-ref, --show-toplevel, --git-dir, --is-inside-work-tree)`);
    else {
      if (abbrev && a === 'HEAD') {
        out.push((await currentBranch(ctx)) ?? 'HEAD');
        continue;
      }
      const oid = await revOid(ctx, a);
      if (!oid) {
        return {
          stdout: `${a}\n`,
          stderr: `fatal: ambiguous argument '${a}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n`,
          exitCode: 128,
        };
      }
      out.push(abbrev ? a : short ? oid.slice(0, 7) : oid);
    }
  }
  return ok(out.map((l) => `${l}\n`).join(''));
}

export async function gitConfig(ctx: GitCtx, args: string[]): Promise<GitResult> {
  const global = args.includes('--global');
  const rest = args.filter((a) => !['--global', '--local', '--get', '--add'].includes(a));
  const bad = rest.find((a) => a.startsWith('-'));
  if (bad) return usage(`unknown option \`${bad}' for git config in the sandbox (supported: [--global] <key> [<value>], --get <key>)`);
  const [key, ...values] = rest;
  if (!key) return usage('missing key; use git config <key> [<value>]');
  const value = values.join(' ');
  if (global || !ctx.dir) {
    const cfg = await readGlobalConfig(ctx);
    if (!values.length) return cfg[key.toLowerCase()] !== undefined ? ok(`${cfg[key.toLowerCase()]}\n`) : { stdout: '', stderr: '', exitCode: 1 };
    if (!global && !ctx.dir) return fatal('not in a git directory');
    cfg[key.toLowerCase()] = value;
    const sections = new Map<string, string[]>();
    for (const [k, v] of Object.entries(cfg)) {
      const dot = k.lastIndexOf('.');
      const list = sections.get(k.slice(0, dot)) ?? [];
      list.push(`\t${k.slice(dot + 1)} = ${v}`);
      sections.set(k.slice(0, dot), list);
    }
    const text = [...sections].map(([s, lines]) => `[${s}]\n${lines.join('\n')}\n`).join('');
    await ctx.raw.writeFile(globalConfigPath(ctx), text);
    return ok();
  }
  const repo = { ...ctx, dir: ctx.dir };
  if (!values.length) {
    const v = (await ctx.git.getConfig({ fs: ctx.fs, dir: repo.dir, path: key })) as unknown;
    if (v !== undefined) return ok(`${String(v)}\n`);
    const g = (await readGlobalConfig(ctx))[key.toLowerCase()];
    return g !== undefined ? ok(`${g}\n`) : { stdout: '', stderr: '', exitCode: 1 };
  }
  await ctx.git.setConfig({ fs: ctx.fs, dir: repo.dir, path: key, value });
  return ok();
}
