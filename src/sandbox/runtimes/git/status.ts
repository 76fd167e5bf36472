/**
 * `git status` (long form, `-s` / `--short`, `--porcelain`), from isomorphic-git's status
 * matrix. The long form keeps git's section titles and hints, which is what a model has seen
 * countless times and reads without effort.
 */
import type { GitResult, RepoCtx } from './context.ts';
import { currentBranch, headOid, inSpecs, ok, repoPath, shownPath, usage } from './context.ts';

/** [filepath, HEAD, WORKDIR, STAGE] as isomorphic-git's statusMatrix returns them. */
export type StatusRow = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

export type FileState = { path: string; index: ' ' | 'M' | 'A' | 'D' | '?'; worktree: ' ' | 'M' | 'D' | '?' };

/** The XY letters `git status --short` shows for a row (null: unchanged). */
export function classify([path, head, work, stage]: StatusRow): FileState[] {
  if (head === 0 && stage === 0) return work === 0 ? [] : [{ path, index: '?', worktree: '?' }];
  if (head === 1 && stage === 0) {
    // Removed from the index (git rm --cached) while the file may still be on disk.
    const out: FileState[] = [{ path, index: 'D', worktree: ' ' }];
    if (work !== 0) out.push({ path, index: '?', worktree: '?' });
    return out;
  }
  const index: FileState['index'] = head === 0 ? 'A' : stage === 1 ? ' ' : 'M';
  const inIndexSameAsWork = stage === 2 || (stage === 1 && work === 1);
  const worktree: FileState['worktree'] = work === 0 ? 'D' : inIndexSameAsWork ? ' ' : 'M';
  if (index === ' ' && worktree === ' ') return [];
  return [{ path, index, worktree }];
}

export async function statusRows(ctx: RepoCtx, specs: string[] = []): Promise<StatusRow[]> {
  const rows = (await ctx.git.statusMatrix({ fs: ctx.fs, dir: ctx.dir })) as StatusRow[];
  return rows.filter((r) => inSpecs(r[0], specs));
}

const LABEL: Record<string, string> = { M: 'modified:   ', A: 'new file:   ', D: 'deleted:    ' };

export async function gitStatus(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let format: 'long' | 'short' | 'porcelain' = 'long';
  const specs: string[] = [];
  for (const a of args) {
    if (a === '-s' || a === '--short') format = 'short';
    else if (a === '--porcelain' || a === '--porcelain=v1') format = 'porcelain';
    else if (a === '-u' || a === '-uall' || a === '--untracked-files=all' || a === '-b' || a === '--branch' || a === '--') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a.replace(/^-+/, '')}' for git status in the sandbox (supported: -s, --short, --porcelain)`);
    else specs.push(repoPath(ctx, a) ?? a);
  }
  const states = (await statusRows(ctx, specs)).flatMap(classify);
  const branchFlag = args.includes('-b') || args.includes('--branch');
  const branch = (await currentBranch(ctx)) ?? 'HEAD (no branch)';
  if (format !== 'long') {
    const shown = (p: string) => (format === 'porcelain' ? p : shownPath(ctx, p));
    const lines = states
      .sort((a, b) => Number(a.index === '?') - Number(b.index === '?') || (a.path < b.path ? -1 : 1))
      .map((s) => `${s.index}${s.worktree} ${shown(s.path)}`);
    if (branchFlag) lines.unshift(`## ${(await headOid(ctx)) ? branch : `No commits yet on ${branch}`}`);
    return ok(lines.map((l) => `${l}\n`).join(''));
  }
  const out: string[] = [`On branch ${branch}`];
  if (await ctx.raw.exists(`${ctx.gitdir}/MERGE_HEAD`)) out.push('All conflicts fixed but you are still merging.', '  (use "git commit" to conclude merge)', '');
  const hasHead = (await headOid(ctx)) !== null;
  if (!hasHead) out.push('', 'No commits yet', '');
  const staged = states.filter((s) => s.index !== ' ' && s.index !== '?');
  const unstaged = states.filter((s) => s.worktree !== ' ' && s.worktree !== '?');
  const untracked = states.filter((s) => s.index === '?');
  // Each section ends with a blank line, as git prints them.
  if (staged.length) {
    out.push('Changes to be committed:', hasHead ? '  (use "git restore --staged <file>..." to unstage)' : '  (use "git rm --cached <file>..." to unstage)');
    for (const s of staged) out.push(`\t${LABEL[s.index]}${shownPath(ctx, s.path)}`);
    out.push('');
  }
  if (unstaged.length) {
    const hint = unstaged.some((s) => s.worktree === 'D') ? 'git add/rm <file>...' : 'git add <file>...';
    out.push('Changes not staged for commit:', `  (use "${hint}" to update what will be committed)`, '  (use "git restore <file>..." to discard changes in working directory)');
    for (const s of unstaged) out.push(`\t${LABEL[s.worktree]}${shownPath(ctx, s.path)}`);
    out.push('');
  }
  if (untracked.length) {
    out.push('Untracked files:', '  (use "git add <file>..." to include in what will be committed)');
    for (const s of untracked) out.push(`\t${shownPath(ctx, s.path)}`);
    out.push('');
  }
  if (!staged.length && !unstaged.length && !untracked.length) {
    out.push(hasHead ? 'nothing to commit, working tree clean' : 'nothing to commit (create/copy files and use "git add" to track)');
  } else if (!staged.length) {
    out.push(unstaged.length ? 'no changes added to commit (use "git add" and/or "git commit -a")' : 'nothing added to commit but untracked files present (use "git add" to track)');
  } else {
    out.pop();
  }
  return ok(`${out.join('\n')}\n${staged.length && !unstaged.length && !untracked.length ? '\n' : ''}`);
}
