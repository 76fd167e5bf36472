/**
 * Resolving one conflict from the merge view, on the live sandbox: through the harness's own
 * `applyMerge`, so a file that changed again since the conflict was reported is refused rather
 * than overwritten. Failures are results with a sentence to show, never exceptions.
 */
import { workspace, type Sandbox } from '../../harness/index.ts';

export type ResolveResult = { ok: true; path: string } | { ok: false; error: string };

export async function resolveConflict(sandbox: Sandbox, conflict: workspace.Conflict, resolution: workspace.Resolution): Promise<ResolveResult> {
  try {
    const res = await workspace.applyMerge(sandbox.fs, sandbox.workdir, { writes: [], conflicts: [conflict] }, new Map([[conflict.path, resolution]]));
    if (res.applied.includes(conflict.path)) return { ok: true, path: `${sandbox.workdir}/${conflict.path}` };
    return { ok: false, error: `${conflict.path} changed again since this conflict was reported, so nothing was written. Look at the file as it is now, then edit it by hand.` };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
