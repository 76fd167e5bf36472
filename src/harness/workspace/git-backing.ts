/**
 * An isolated workspace on a real git branch. When the project is a git repository (the sandbox
 * offers the `SandboxGit` port and the working directory has a HEAD commit), the agent's private
 * tree is a linked worktree of it, `git worktree add -b agent/<name> /.ws/<id>/home/project HEAD`,
 * instead of a plain copy: the agent's `git status`, `git diff`, `git log` work there and name its
 * branch. When it finishes, what it changed is committed on that branch (a commit naming the agent
 * and its task), and the merge back is recorded as a real merge commit.
 *
 * Why the files are still merged by `planMerge` and not by git's own merge: the merge base is the
 * same (the commit the branch started from is the snapshot), so every clean, three-way and
 * conflicting file comes out as git would decide it — but `planMerge` compares with the working
 * tree as it is now, so an uncommitted edit in the project is a conflict, never overwritten, and
 * the files that merge are written while only the overlapping ones are refused. isomorphic-git's
 * merge works on commits only and either aborts the whole merge or writes conflict markers into
 * the files. The merge commit is made once the files are written; with a conflict the merge stays
 * in progress (`MERGE_HEAD`), and the `git commit` after the resolution concludes it.
 */
import type { GitIdentity, Sandbox } from '../ports.ts';
import type { FileChange } from './changes.ts';
import type { WorkspaceBranch, WorkspaceGitMerge } from './types.ts';

export type GitBacking = WorkspaceBranch & {
  /** The branch checked out in the project when the workspace was made (null: detached HEAD). */
  into: string | null;
};

/**
 * `agent/<name>`, short enough to read in `git branch`: a teammate's name (`teammate-alice` →
 * `agent/alice`), a subagent's type and the end of its id (`agent-general-purpose_01…Huu` →
 * `agent/general-purpose-VVzHuu`). Ids are already ref-safe; a clash gets a suffix when made.
 */
export function branchFor(id: string): string {
  const name = id.replace(/^(agent|teammate)-/, '');
  const sub = /^(.+)_([A-Za-z0-9]{4,})$/.exec(name);
  return `agent/${sub ? `${sub[1]}-${sub[2]!.slice(-6)}` : name}`;
}

/** The agent as a commit author, so `git log` says who did what. */
export function agentIdentity(agentId: string): GitIdentity {
  return { name: agentId, email: `${agentId}@agents.harness-playground.local` };
}

/**
 * Makes the worktree at `root` on a new branch from HEAD, or returns null when the project is not
 * a git repository with a commit (then the caller copies the files instead).
 */
export async function openGitBacking(base: Sandbox, id: string, root: string): Promise<GitBacking | null> {
  // No `.git` here: not a repository, and no need to ask git (a command run costs more than a stat).
  if (!base.git || !(await base.fs.stat(`${base.workdir}/.git`))) return null;
  const head = await base.git.head(base.workdir);
  if (!head) return null;
  // A teammate spawned again under its old name finds its old branch: the new one gets a suffix.
  for (let n = 1; ; n++) {
    const branch = n === 1 ? branchFor(id) : `${branchFor(id)}-${n}`;
    try {
      await base.git.addWorktree(base.workdir, { path: root, branch, commit: head.commit });
      return { branch, base: head.commit, into: head.branch };
    } catch (err) {
      if (n >= 20 || !/already exists/.test(err instanceof Error ? err.message : String(err))) throw err;
    }
  }
}

/** Commits the agent's changes on its branch: the commit's oid, or null when there was nothing to commit. */
export async function commitWorkspace(base: Sandbox, backing: GitBacking, root: string, changes: readonly FileChange[], agentId: string, task: string | undefined): Promise<string | null> {
  const subject = `${agentId}: ${(task ?? 'work in its isolated workspace').split('\n')[0]}`;
  const body = changes.map((c) => `${c.kind} ${c.path}`).join('\n');
  return base.git!.commit(root, { paths: changes.map((c) => c.path), message: `${subject}\n\n${body}`, author: agentIdentity(agentId) });
}

/**
 * Records the merge after the files were written: a merge commit when nothing was refused, else
 * the merge left in progress. Never throws: git failing here must not undo a merge of the files.
 */
export async function recordGitMerge(base: Sandbox, backing: GitBacking, applied: readonly string[], conflicts: number, task: string | undefined): Promise<WorkspaceGitMerge> {
  const message = `Merge branch '${backing.branch}'${task ? `\n\n${task.split('\n')[0]}` : ''}`;
  try {
    const r = await base.git!.recordMerge(base.workdir, { branch: backing.branch, paths: applied, message, conclude: conflicts === 0 });
    return { branch: backing.branch, ...r };
  } catch (err) {
    return { branch: backing.branch, commit: null, inProgress: false, error: err instanceof Error ? err.message : String(err) };
  }
}
