/**
 * The plain-JSON shapes the `workspace.*` events carry. A leaf: it imports nothing, so `trace.ts`
 * can include the events without an import cycle through the ports.
 */

export type ChangeKind = 'added' | 'modified' | 'deleted';

export type ConflictReason =
  /** Two workspaces changed the file (and their hunks overlap). */
  | 'both_changed'
  /** The base changed the file since the workspace's snapshot (and the hunks overlap). */
  | 'base_changed';

export type ConflictSide = { workspaceId: string; after: string | null; patch: string };

export type Conflict = {
  path: string;
  reason: ConflictReason;
  /** The snapshot content the workspaces started from (null: the file did not exist). */
  ancestor: string | null;
  /** What the base holds now. */
  current: string | null;
  sides: ConflictSide[];
};

/** A git-backed workspace's branch, on `workspace.created`: where it starts. */
export type WorkspaceBranch = {
  /** The branch the agent works on, e.g. `agent/general-purpose_0002`. */
  branch: string;
  /** The commit it starts from (the project's HEAD then): the merge base. */
  base: string;
};

/** The agent's commit on its branch, on `workspace.changes` (null: nothing to commit). */
export type WorkspaceCommit = { branch: string; commit: string | null };

/** How the merge was recorded in git, on `workspace.merge`. */
export type WorkspaceGitMerge = {
  branch: string;
  /** The merge commit on the project's branch; null while the merge is in progress. */
  commit: string | null;
  /** Conflicts (here or in an earlier merge) are unresolved: `MERGE_HEAD` waits for a `git commit`. */
  inProgress: boolean;
  /** Why git could not record it (the files were merged all the same). */
  error?: string;
};
