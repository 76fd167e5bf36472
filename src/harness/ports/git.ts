/**
 * The sandbox's git port (`SandboxGit`, optional on `Sandbox`): what the harness needs to back an
 * isolated workspace with a real branch and merge. Re-exported by `../ports.ts`.
 */

/** Who a commit is by (`GIT_AUTHOR_*` / `GIT_COMMITTER_*`). */
export type GitIdentity = { name: string; email: string };

/**
 * Git in the sandbox, for the harness's own bookkeeping: an isolated workspace in a git project
 * is a linked worktree on its own branch, committed when the agent finishes and merged back with
 * a real merge commit (`harness/workspace/git-backing.ts`). Optional on {@link Sandbox}: absent
 * when the sandbox has no git to drive (WebContainer has no git binary), and then a workspace is
 * a plain copy. Implementation: `src/sandbox/git-port.ts`, through the sandbox's own `git` command
 * (isomorphic-git in just-bash), so what it does is what `git log` / `git worktree list` show.
 *
 * Contract (test/unit/git-port.test.ts):
 * - Paths are absolute; `dir` is the top of the project's working tree (the main worktree).
 * - `head(dir)` resolves to the commit and the branch checked out there (branch null when
 *   detached) when `dir` is the top of a git working tree with at least one commit; otherwise
 *   null. It never rejects for "not a repository".
 * - `addWorktree` is `git worktree add -b <branch> <path> <commit>`: a new branch at `commit`,
 *   checked out in a new linked worktree at `path`. It rejects when the branch exists or `path`
 *   is not empty, and then creates nothing.
 * - `commit(path, …)` stages exactly `paths` (relative to `path`; added, changed or deleted) in the
 *   worktree at `path` and commits them on its branch; resolves to the new commit, or null when
 *   none of them differs from that branch's tip.
 * - `recordMerge(dir, …)`: the working tree at `dir` already holds the merged content of `paths`.
 *   Stages them and records `branch`'s tip as merged: with `conclude` and no merge already in
 *   progress, a merge commit on the checked-out branch (parents: HEAD, then the tip), even when
 *   HEAD could fast-forward; otherwise the merge is left in progress (the tip joins `MERGE_HEAD`)
 *   for the `git commit` that concludes it once the conflicts are resolved.
 * - `removeWorktree(dir, path)` is `git worktree remove --force <path>`: the folder and its
 *   bookkeeping go, the branch and its commits stay.
 * - Failures reject with an Error carrying git's own message.
 */
export interface SandboxGit {
  head(dir: string): Promise<{ commit: string; branch: string | null } | null>;
  addWorktree(dir: string, opts: { path: string; branch: string; commit: string }): Promise<void>;
  commit(path: string, opts: { paths: readonly string[]; message: string; author?: GitIdentity }): Promise<string | null>;
  recordMerge(dir: string, opts: { branch: string; paths: readonly string[]; message: string; conclude: boolean; author?: GitIdentity }): Promise<{ commit: string | null; inProgress: boolean }>;
  removeWorktree(dir: string, path: string): Promise<void>;
}
