/**
 * When an agent in a workspace finishes: list its changes, merge what merges, refuse the rest as
 * conflicts, and say so in events and in a few lines the lead's model reads. Shared by subagents
 * (`agents/subagents/run-child.ts`) and teammates (`agents/teams/workspace.ts`).
 */
import type { Sandbox } from '../ports.ts';
import type { WorkspaceEventBody } from './events.ts';
import { commitWorkspace, recordGitMerge } from './git-backing.ts';
import type { WorkspaceGitMerge } from './types.ts';
import type { IsolatedWorkspace } from './isolated-workspace.ts';
import { mergeLedger, withMergeLock } from './ledger.ts';
import { applyMerge, planMerge, type MergeResult } from './merge.ts';

export type OfferBackResult = MergeResult & { changed: number; report: string };

export async function offerBack(
  base: Sandbox,
  ws: IsolatedWorkspace,
  forAgentId: string,
  emit: (e: WorkspaceEventBody) => Promise<void>,
): Promise<OfferBackResult> {
  const changes = await ws.changes();
  // Git-backed: the agent's work becomes a commit on its branch before anything is merged.
  let commit: string | null = null;
  let commitError: string | undefined;
  if (ws.git && changes.length) {
    try {
      commit = await commitWorkspace(base, ws.git, ws.root, changes, forAgentId, ws.task);
    } catch (err) {
      commitError = err instanceof Error ? err.message : String(err);
    }
  }
  await emit({
    type: 'workspace.changes',
    workspaceId: ws.id,
    forAgentId,
    changes: changes.map(({ path, kind, patch, addedLines, removedLines }) => ({ path, kind, patch, addedLines, removedLines })),
    ...(ws.git ? { git: { branch: ws.git.branch, commit } } : {}),
  });
  if (changes.length === 0) return { applied: [], conflicts: [], changed: 0, report: `Workspace: no files changed.${ws.git ? ` Its branch ${ws.git.branch} has no new commit.` : ''}` };
  const ledger = mergeLedger(base);
  // Plan and apply under the lock, and record what this merge wrote before the next one plans.
  const { plan, result, mergedBy, git } = await withMergeLock(base, async () => {
    const plan = await planMerge(base.fs, base.workdir, [{ workspaceId: ws.id, changes }]);
    const result = await applyMerge(base.fs, base.workdir, plan);
    const mergedBy = new Map(result.conflicts.map((c) => [c.path, ledger.get(c.path)]));
    for (const path of result.applied) ledger.set(path, ws.id);
    let git: WorkspaceGitMerge | undefined;
    if (ws.git) {
      // No new commit but no error: the agent committed its work itself, so the branch tip has it.
      git =
        commitError === undefined
          ? await recordGitMerge(base, ws.git, result.applied, result.conflicts.length, ws.task)
          : { branch: ws.git.branch, commit: null, inProgress: false, error: `the agent's commit on ${ws.git.branch} failed: ${commitError}` };
    }
    return { plan, result, mergedBy, git };
  });
  const how = new Map(plan.writes.map((w) => [w.path, w.how]));
  const applied = result.applied.map((path) => ({ path, how: how.get(path) === 'auto_merged' ? ('auto_merged' as const) : ('clean' as const) }));
  await emit({ type: 'workspace.merge', workspaceId: ws.id, forAgentId, applied, conflicts: result.conflicts.map((c) => c.path), ...(git ? { git } : {}) });
  for (const conflict of result.conflicts) {
    const by = mergedBy.get(conflict.path);
    await emit({ type: 'workspace.conflict', workspaceId: ws.id, forAgentId, conflict, ...(by ? { mergedBy: by } : {}) });
  }
  const lines = [`Workspace ${ws.id}: ${changes.length} file(s) changed; merged: ${result.applied.join(', ') || 'none'}.`];
  if (git) lines.push(gitLine(git, commit));
  for (const c of result.conflicts) {
    const by = mergedBy.get(c.path);
    lines.push(
      `CONFLICT in ${c.path}: ${by ? `${by} merged its own change to it first` : 'it changed in the working tree since this agent\'s copy was taken'}, and the changes overlap. ` +
        `It was NOT overwritten. The agent's change, as a diff against its copy:\n${c.sides.map((s) => s.patch).join('\n')}`,
    );
  }
  return { ...result, changed: changes.length, report: lines.join('\n') };
}

/** What the lead reads about the branch: its commit, and the merge commit or the merge in progress. */
function gitLine(git: WorkspaceGitMerge, commit: string | null): string {
  const on = `Branch ${git.branch}${commit ? ` (commit ${commit.slice(0, 7)})` : ''}`;
  if (git.error) return `${on}: the merge was not recorded in git (${git.error}); the files above were merged all the same.`;
  if (git.commit) return `${on}: merged with merge commit ${git.commit.slice(0, 7)}.`;
  return `${on}: the merge is in progress (MERGE_HEAD); once the conflicts are resolved, \`git commit\` concludes it.`;
}
