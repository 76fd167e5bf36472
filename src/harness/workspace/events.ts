/**
 * The trace events of isolated workspaces, joined into `TraceEvent` in `trace.ts`. Plain JSON:
 * the merge view is built from them alone (each conflict carries every version of its file).
 */
import type { ChangeKind, Conflict, WorkspaceBranch, WorkspaceCommit, WorkspaceGitMerge } from './types.ts';

/** One file of a workspace's changes, as the merge view shows it. */
export type ChangeSummary = { path: string; kind: ChangeKind; patch: string; addedLines: number; removedLines: number };

export type WorkspaceEventBody =
  | {
      /** An agent got its own copy of the working tree. */
      type: 'workspace.created';
      workspaceId: string;
      /** The agent that works in it. */
      forAgentId: string;
      /** The private tree in the base sandbox. */
      root: string;
      /** Files copied into it (the snapshot every diff is measured against). */
      files: number;
      /** Present when the project is a git repository: the copy is a linked worktree on this branch. */
      git?: WorkspaceBranch;
    }
  | {
      /** The agent finished: what it changed against its snapshot. */
      type: 'workspace.changes';
      workspaceId: string;
      forAgentId: string;
      changes: ChangeSummary[];
      /** Git-backed: the commit that records them on the agent's branch. */
      git?: WorkspaceCommit;
    }
  | {
      /** The changes were offered back: what was written to the base, what was refused. */
      type: 'workspace.merge';
      workspaceId: string;
      forAgentId: string;
      applied: { path: string; how: 'clean' | 'auto_merged' }[];
      /** Paths refused as conflicts (one `workspace.conflict` each follows). */
      conflicts: string[];
      /** Git-backed: the merge commit, or the merge left in progress. */
      git?: WorkspaceGitMerge;
    }
  | {
      /** A file the merge refused to overwrite: someone must choose (or edit) its content. */
      type: 'workspace.conflict';
      workspaceId: string;
      forAgentId: string;
      conflict: Conflict;
      /** The workspace whose earlier merge changed the base's copy, when one did. */
      mergedBy?: string;
    };
