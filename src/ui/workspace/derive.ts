/**
 * The merge view's model, built from the `workspace.*` events alone: one entry per workspace, in
 * the order they were created, with its changes, what was merged and the conflicts it left.
 */
import type { EventOf, TraceEvent } from '../../harness/index.ts';

export type WorkspaceView = {
  workspaceId: string;
  forAgentId: string;
  root: string;
  files: number;
  changes: EventOf<'workspace.changes'>['changes'] | null;
  merge: EventOf<'workspace.merge'> | null;
  conflicts: EventOf<'workspace.conflict'>[];
  /** A git-backed workspace: its branch, the base it started from, and the agent's commit once made. */
  git: { branch: string; base: string; commit: string | null } | null;
};

export function deriveWorkspaces(events: readonly TraceEvent[]): WorkspaceView[] {
  const byId = new Map<string, WorkspaceView>();
  for (const e of events) {
    if (e.type === 'workspace.created') {
      byId.set(e.workspaceId, {
        workspaceId: e.workspaceId,
        forAgentId: e.forAgentId,
        root: e.root,
        files: e.files,
        changes: null,
        merge: null,
        conflicts: [],
        git: e.git ? { branch: e.git.branch, base: e.git.base, commit: null } : null,
      });
      continue;
    }
    if (e.type !== 'workspace.changes' && e.type !== 'workspace.merge' && e.type !== 'workspace.conflict') continue;
    const ws = byId.get(e.workspaceId);
    if (!ws) continue;
    if (e.type === 'workspace.changes') {
      ws.changes = e.changes;
      if (ws.git && e.git) ws.git.commit = e.git.commit;
    }
    else if (e.type === 'workspace.merge') ws.merge = e;
    else ws.conflicts.push(e);
  }
  return [...byId.values()];
}

/** A conflict's key in the view's resolved-state map. */
export const conflictKey = (workspaceId: string, path: string) => `${workspaceId}\u0000${path}`;

/** One line of a unified diff, classified for colouring. */
export type PatchLine = { kind: 'add' | 'del' | 'hunk' | 'ctx'; text: string };

/** The diff body without the `===` / `---` / `+++` header lines. */
export function patchLines(patch: string): PatchLine[] {
  const out: PatchLine[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('===') || line.startsWith('--- ') || line.startsWith('+++ ') || line === '\\ No newline at end of file') continue;
    if (line.startsWith('@@')) out.push({ kind: 'hunk', text: line });
    else if (line.startsWith('+')) out.push({ kind: 'add', text: line });
    else if (line.startsWith('-')) out.push({ kind: 'del', text: line });
    else if (line.length > 0) out.push({ kind: 'ctx', text: line });
  }
  return out;
}
