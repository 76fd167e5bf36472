/**
 * `git merge [--no-ff | --ff-only] [-m <msg>] <branch | commit>`: a fast-forward, or a real
 * three-way merge commit (isomorphic-git's merge, which aborts on a conflict), then the files and
 * the index follow the new HEAD. What it refuses, and why:
 *
 * - a conflict: isomorphic-git would otherwise write conflict markers into the files and unmerged
 *   entries into the index, a state the rest of this git (status, commit) does not model. So the
 *   merge stops before changing anything and says which files overlap; resolving by hand and
 *   committing is what is left (in the harness, the merge view does exactly that).
 * - local changes to a file the merge would write (as git does), and a merge already in progress.
 */
import type { GitResult, RepoCtx } from './context.ts';
import { author, currentBranch, fatal, headOid, ok, usage } from './context.ts';
import { statText, treeOids } from './diff.ts';
import { commitDiffs } from './history.ts';
import { classify, statusRows } from './status.ts';

const SUPPORTED = '[--no-ff | --ff-only] [-m <message>] <branch or commit>';

type ConflictData = { filepaths?: string[]; bothModified?: string[]; deleteByUs?: string[]; deleteByTheirs?: string[] };

async function resolveCommit(ctx: RepoCtx, rev: string): Promise<string | null> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: rev });
  } catch {
    return ctx.git.expandOid({ fs: ctx.fs, dir: ctx.dir, oid: rev }).catch(() => null);
  }
}

/** Paths whose blob differs between two commits. */
async function changedBetween(ctx: RepoCtx, a: string, b: string): Promise<string[]> {
  const ta = await treeOids(ctx, a);
  const tb = await treeOids(ctx, b);
  return [...new Set([...ta.keys(), ...tb.keys()])].filter((p) => ta.get(p) !== tb.get(p)).sort();
}

function conflictReport(data: ConflictData, theirs: string): string {
  const lines: string[] = [];
  for (const p of data.bothModified ?? []) lines.push(`Auto-merging ${p}`, `CONFLICT (content): Merge conflict in ${p}`);
  for (const p of data.deleteByUs ?? []) lines.push(`CONFLICT (modify/delete): ${p} deleted in HEAD and modified in ${theirs}.`);
  for (const p of data.deleteByTheirs ?? []) lines.push(`CONFLICT (modify/delete): ${p} deleted in ${theirs} and modified in HEAD.`);
  if (lines.length === 0) for (const p of data.filepaths ?? []) lines.push(`CONFLICT: Merge conflict in ${p}`);
  lines.push(
    'Automatic merge failed. The sandbox\'s git writes no conflict markers, so nothing was changed: HEAD, the index and the files are as they were.',
    `Combine the changes by hand (see \`git diff HEAD ${theirs}\`), then commit.`,
  );
  return `${lines.join('\n')}\n`;
}

export async function gitMerge(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let noFf = false;
  let ffOnly = false;
  let message: string | null = null;
  const revs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--no-ff') noFf = true;
    else if (a === '--ff-only') ffOnly = true;
    else if (a === '--ff' || a === '--no-edit' || a === '-q' || a === '--quiet') continue;
    else if (a === '-m') {
      message = args[++i] ?? null;
      if (message === null) return usage("switch `m' requires a value");
    } else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git merge in the sandbox (supported: ${SUPPORTED})`);
    else revs.push(a);
  }
  if (revs.length !== 1) return usage(`git merge in the sandbox takes one branch or commit (supported: ${SUPPORTED})`);
  const rev = revs[0]!;
  const branch = await currentBranch(ctx);
  const ours = await headOid(ctx);
  if (!branch || !ours) return fatal('the sandbox\'s git merges into a branch with at least one commit; check one out first');
  if (await ctx.raw.exists(`${ctx.gitdir}/MERGE_HEAD`)) return fatal('You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.');
  const theirs = await resolveCommit(ctx, rev);
  if (!theirs) return fatal(`merge: ${rev} - not something we can merge`);
  const { git } = ctx;
  if (ours === theirs || (await git.isDescendent({ fs: ctx.fs, dir: ctx.dir, oid: ours, ancestor: theirs }))) return ok('Already up to date.\n');
  const canFf = await git.isDescendent({ fs: ctx.fs, dir: ctx.dir, oid: theirs, ancestor: ours });
  if (ffOnly && !canFf) return fatal('Not possible to fast-forward, aborting.');

  // The merge writes only files the other side changed since the merge base: refuse local edits to those.
  const [base] = await git.findMergeBase({ fs: ctx.fs, dir: ctx.dir, oids: [ours, theirs] });
  const touched = new Set(base ? await changedBetween(ctx, base as string, theirs) : (await treeOids(ctx, theirs)).keys());
  const dirty = (await statusRows(ctx)).flatMap(classify).filter((s) => s.index !== '?' && touched.has(s.path));
  if (dirty.length) {
    return { stdout: '', stderr: `error: Your local changes to the following files would be overwritten by merge:\n${dirty.map((d) => `\t${d.path}`).join('\n')}\nPlease commit your changes or stash them before you merge.\nAborting\n`, exitCode: 1 };
  }

  let head: string;
  if (canFf && !noFf) {
    await git.writeRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${branch}`, value: theirs, force: true });
    head = theirs;
  } else {
    const who = await author(ctx);
    const isBranch = (await git.listBranches({ fs: ctx.fs, dir: ctx.dir })).includes(rev);
    const text = message ?? `Merge ${isBranch ? 'branch' : 'commit'} '${rev}'${branch === 'main' || branch === 'master' ? '' : ` into ${branch}`}`;
    try {
      const r = await git.merge({ fs: ctx.fs, dir: ctx.dir, ours: branch, theirs, fastForward: false, abortOnConflict: true, message: text, author: who, committer: who });
      head = r.oid!;
    } catch (err) {
      if ((err as { code?: string }).code === 'MergeConflictError') return { stdout: '', stderr: conflictReport((err as { data?: ConflictData }).data ?? {}, rev), exitCode: 1 };
      throw err;
    }
  }
  // The files and the index follow the new HEAD.
  const changed = await changedBetween(ctx, ours, head);
  const after = await treeOids(ctx, head);
  const present = changed.filter((p) => after.has(p));
  if (present.length) await git.checkout({ fs: ctx.fs, dir: ctx.dir, ref: branch, filepaths: present, force: true, noUpdateHead: true });
  for (const p of changed.filter((x) => !after.has(x))) {
    await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: p });
    await ctx.raw.rm(`${ctx.dir}/${p}`, { force: true });
  }
  const stat = statText(await commitDiffs(ctx, ours, head));
  return ok(canFf && !noFf ? `Updating ${ours.slice(0, 7)}..${theirs.slice(0, 7)}\nFast-forward\n${stat}` : `Merge made by the 'ort' strategy.\n${stat}`);
}
