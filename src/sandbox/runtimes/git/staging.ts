/**
 * `git add` (paths, `.`, `-A` / `--all`, `-u`), `git rm` (`--cached`, `-r`), `git restore`
 * (`--staged`), `git reset` (unstage, `--hard`) — the commands that move changes between the
 * working tree and the index.
 */
import type { GitResult, RepoCtx } from './context.ts';
import { fatal, headOid, inSpecs, ok, repoPath, revOid, usage } from './context.ts';
import { treeOids } from './diff.ts';
import { statusRows } from './status.ts';

function specsOf(ctx: RepoCtx, paths: string[]): string[] | GitResult {
  const out: string[] = [];
  for (const p of paths) {
    const rel = repoPath(ctx, p);
    if (rel === null) return fatal(`${p}: '${p}' is outside repository at '${ctx.dir}'`);
    out.push(rel);
  }
  return out;
}

export async function gitAdd(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let all = false;
  let updateOnly = false;
  const paths: string[] = [];
  for (const a of args) {
    if (a === '-A' || a === '--all') all = true;
    else if (a === '-u' || a === '--update') updateOnly = true;
    else if (a === '--' || a === '-v' || a === '--verbose') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git add in the sandbox (supported: <paths>, ., -A, -u)`);
    else paths.push(a);
  }
  if (paths.length === 0 && !all && !updateOnly) {
    return { stdout: 'Nothing specified, nothing added.\nhint: Maybe you wanted to say \'git add .\'?\n', stderr: '', exitCode: 0 };
  }
  const specs = specsOf(ctx, paths);
  if (!Array.isArray(specs)) return specs;
  const rows = await statusRows(ctx);
  for (const s of specs) {
    if (s !== '.' && !rows.some((r) => inSpecs(r[0], [s]))) return fatal(`pathspec '${paths[specs.indexOf(s)]}' did not match any files`);
  }
  for (const [path, head, work, stage] of rows) {
    if (!inSpecs(path, specs)) continue;
    if (updateOnly && head === 0 && stage === 0) continue;
    if (work === 0) {
      if (stage !== 0) await ctx.git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: path });
    } else if (!(head === 1 && work === 1 && stage === 1)) {
      await ctx.git.add({ fs: ctx.fs, dir: ctx.dir, filepath: path });
    }
  }
  return ok();
}

export async function gitRm(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  // Words after `--` are paths, even one that looks like an option.
  const end = args.indexOf('--');
  const opts = end < 0 ? args : args.slice(0, end);
  const cached = opts.includes('--cached');
  const paths = [...opts.filter((a) => !a.startsWith('-')), ...(end < 0 ? [] : args.slice(end + 1))];
  const bad = opts.find((a) => a.startsWith('-') && !['--cached', '-r', '-f', '--force', '-q', '--quiet'].includes(a));
  if (bad) return usage(`unknown option \`${bad}' for git rm in the sandbox (supported: --cached, -r, -f)`);
  if (paths.length === 0) return fatal('No pathspec was given. Which files should I remove?');
  const specs = specsOf(ctx, paths);
  if (!Array.isArray(specs)) return specs;
  const rows = await statusRows(ctx);
  const out: string[] = [];
  for (const [i, s] of specs.entries()) {
    const hits = rows.filter((r) => inSpecs(r[0], [s]) && r[3] !== 0);
    if (hits.length === 0) return fatal(`pathspec '${paths[i]}' did not match any files`);
    for (const [path] of hits) {
      await ctx.git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: path });
      if (!cached) await ctx.raw.rm(`${ctx.dir}/${path}`, { force: true });
      out.push(`rm '${path}'\n`);
    }
  }
  return ok(out.join(''));
}

/** Puts the HEAD version of `paths` back into the index (unstaging them). */
async function unstage(ctx: RepoCtx, specs: string[]): Promise<void> {
  const hasHead = (await headOid(ctx)) !== null;
  for (const [path, head, , stage] of await statusRows(ctx)) {
    // Something is staged when the index differs from HEAD: a new file (0 → ≠0), a change, or a
    // deletion (1 → 0: `git rm`, which a `stage === 0` test used to skip, so it stayed staged).
    if (!inSpecs(path, specs) || stage === head) continue;
    if (hasHead) await ctx.git.resetIndex({ fs: ctx.fs, dir: ctx.dir, filepath: path });
    else await ctx.git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: path });
  }
}

export async function gitRestore(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  // Words after `--` are paths, even one that looks like an option.
  const end = args.indexOf('--');
  const opts = end < 0 ? args : args.slice(0, end);
  const staged = opts.includes('--staged') || opts.includes('-S');
  const paths = [...opts.filter((a) => !a.startsWith('-')), ...(end < 0 ? [] : args.slice(end + 1))];
  const bad = opts.find((a) => a.startsWith('-') && !['--staged', '-S', '--worktree', '-W', '-q', '--quiet'].includes(a));
  if (bad) return usage(`unknown option \`${bad}' for git restore in the sandbox (supported: <paths>, --staged)`);
  if (paths.length === 0) return fatal('you must specify path(s) to restore');
  const specs = specsOf(ctx, paths);
  if (!Array.isArray(specs)) return specs;
  if (staged) {
    await unstage(ctx, specs);
    return ok();
  }
  return restoreFiles(ctx, specs, paths);
}

/**
 * `git checkout <branch|commit> -- <paths>`: the paths as that commit has them, in the working
 * tree and the index (as git does); HEAD does not move.
 */
export async function checkoutFilesFrom(ctx: RepoCtx, rev: string, specs: string[], shown: string[]): Promise<GitResult> {
  const oid = await revOid(ctx, rev);
  if (!oid) return fatal(`invalid reference: ${rev}`);
  const inTree = [...(await treeOids(ctx, oid)).keys()];
  for (const [i, s] of specs.entries()) {
    if (!inTree.some((p) => inSpecs(p, [s]))) return { stdout: '', stderr: `error: pathspec '${shown[i]}' did not match any file(s) known to git\n`, exitCode: 1 };
  }
  const filepaths = inTree.filter((p) => inSpecs(p, specs));
  await ctx.git.checkout({ fs: ctx.fs, dir: ctx.dir, ref: oid, filepaths, force: true, noUpdateHead: true });
  return ok();
}

/**
 * `git checkout -- <paths>` / `git restore <paths>`: working-tree files back to what the index
 * holds (the HEAD version unless something was staged since), as git does.
 */
export async function restoreFiles(ctx: RepoCtx, specs: string[], shown: string[]): Promise<GitResult> {
  const staged = await treeOids(ctx, 'stage');
  const known = [...staged.keys()];
  for (const [i, s] of specs.entries()) {
    if (!known.some((p) => inSpecs(p, [s]))) return { stdout: '', stderr: `error: pathspec '${shown[i]}' did not match any file(s) known to git\n`, exitCode: 1 };
  }
  for (const p of known.filter((k) => inSpecs(k, specs))) {
    const { blob } = await ctx.git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid: staged.get(p)! });
    const path = `${ctx.dir}/${p}`;
    await ctx.raw.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await ctx.raw.writeFile(path, blob);
  }
  return ok();
}

/**
 * What a mixed `git reset` prints: the tracked files whose working copy now differs from the index
 * ("Unstaged changes after reset:", then `M\tpath` / `D\tpath`), nothing when there are none.
 */
async function unstagedAfterReset(ctx: RepoCtx): Promise<string> {
  const lines: string[] = [];
  for (const [path, head, workdir, stage] of await statusRows(ctx)) {
    if (head === 0 && stage === 0) continue; // untracked
    if (workdir === 0) lines.push(`D\t${path}`);
    else if (stage === 3 || (stage === 1 && workdir === 2)) lines.push(`M\t${path}`);
  }
  return lines.length ? `Unstaged changes after reset:\n${lines.join('\n')}\n` : '';
}

export async function gitReset(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const hard = args.includes('--hard');
  const rest = args.filter((a) => !['--hard', '--mixed', '-q', '--quiet', '--', 'HEAD'].includes(a));
  const bad = rest.find((a) => a.startsWith('-'));
  if (bad) return usage(`unknown option \`${bad}' for git reset in the sandbox (supported: [--hard] [HEAD] [-- <paths>])`);
  const specs = specsOf(ctx, rest);
  if (!Array.isArray(specs)) return specs;
  // Files staged as new (not in HEAD) leave the working tree too with --hard, as in git.
  const stagedNew = (await statusRows(ctx)).filter((r) => r[1] === 0 && r[3] !== 0 && inSpecs(r[0], specs)).map((r) => r[0]);
  await unstage(ctx, specs);
  if (!hard) return ok(await unstagedAfterReset(ctx));
  const head = await headOid(ctx);
  if (!head) return fatal('cannot reset --hard without any commit');
  const tracked = (await statusRows(ctx)).filter((r) => r[1] === 1 && inSpecs(r[0], specs)).map((r) => r[0]);
  if (tracked.length) await ctx.git.checkout({ fs: ctx.fs, dir: ctx.dir, ref: 'HEAD', filepaths: tracked, force: true, noUpdateHead: true });
  for (const p of stagedNew) await ctx.raw.rm(`${ctx.dir}/${p}`, { force: true });
  const { commit } = await ctx.git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid: head });
  return ok(`HEAD is now at ${head.slice(0, 7)} ${commit.message.split('\n')[0]}\n`);
}
