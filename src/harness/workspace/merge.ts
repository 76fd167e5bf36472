/**
 * Offering a workspace's changes back to the base, without ever overwriting silently.
 *
 * `planMerge` sorts every changed file into: clean (only this workspace changed it and the base
 * still holds the snapshot's content), auto-merged (the base or another workspace changed it too,
 * but the hunks do not touch: each patch applies with its context lines intact), or a conflict
 * (two changes to the same lines, or a delete against an edit). `applyMerge` writes clean and
 * auto-merged files and the conflicts the caller resolved; an unresolved conflict is never
 * written, and a file that changed again since the plan was made is refused as a new conflict.
 */
import { applyPatch } from 'diff';
import type { SandboxFs } from '../ports.ts';
import type { FileChange } from './changes.ts';
import type { Conflict, ConflictSide } from './types.ts';

export type { Conflict, ConflictReason, ConflictSide } from './types.ts';

export type MergeInput = { workspaceId: string; changes: readonly FileChange[] };


/** A file the merge will write: `content` null removes it. */
export type PlannedWrite = {
  path: string;
  content: string | null;
  /** What the base held when the plan was made: the write is refused if that moved. */
  current: string | null;
  /** The snapshot content the workspaces started from. */
  ancestor: string | null;
  from: string[];
  /** Each workspace's version, so a refused write becomes a conflict that still has them. */
  sides: ConflictSide[];
  how: 'clean' | 'auto_merged' | 'unchanged';
};

export type MergePlan = { writes: PlannedWrite[]; conflicts: Conflict[] };

export type Resolution =
  /** Take one workspace's version ("mine", seen from that agent). */
  | { take: 'workspace'; workspaceId: string }
  /** Keep what the base holds ("theirs"). */
  | { take: 'base' }
  /** Write this content (an edit by hand); null deletes the file. */
  | { take: 'content'; content: string | null };

export type MergeResult = {
  /** Files written or removed, relative to the working directory. */
  applied: string[];
  /** Conflicts left as they are: nothing of them was written. */
  conflicts: Conflict[];
};

async function readOrNull(fs: SandboxFs, path: string): Promise<string | null> {
  const st = await fs.stat(path);
  return st && st.kind === 'file' ? fs.readFile(path) : null;
}

/** Applies the patches in order onto `start`; null when one of them does not fit. */
function applyAll(start: string, changes: readonly FileChange[]): string | null {
  let text = start;
  for (const c of changes) {
    if (c.after === null) return null;
    const next = applyPatch(text, c.patch);
    if (next === false) return null;
    text = next;
  }
  return text;
}

export async function planMerge(fs: SandboxFs, workdir: string, inputs: readonly MergeInput[]): Promise<MergePlan> {
  const byPath = new Map<string, { workspaceId: string; change: FileChange }[]>();
  for (const input of inputs) for (const change of input.changes) byPath.set(change.path, [...(byPath.get(change.path) ?? []), { workspaceId: input.workspaceId, change }]);
  const writes: PlannedWrite[] = [];
  const conflicts: Conflict[] = [];
  for (const path of [...byPath.keys()].sort()) {
    const sides = byPath.get(path)!;
    const ancestor = sides[0]!.change.before;
    const current = await readOrNull(fs, `${workdir}/${path}`);
    const from = sides.map((s) => s.workspaceId);
    const versions: ConflictSide[] = sides.map((s) => ({ workspaceId: s.workspaceId, after: s.change.after, patch: s.change.patch }));
    const afters = new Set(sides.map((s) => s.change.after));
    if (afters.size === 1 && current === sides[0]!.change.after) {
      writes.push({ path, content: current, current, ancestor, from, sides: versions, how: 'unchanged' });
      continue;
    }
    if (sides.length === 1 && current === ancestor) {
      writes.push({ path, content: sides[0]!.change.after, current, ancestor, from, sides: versions, how: 'clean' });
      continue;
    }
    // Someone else changed it too: a three-way merge succeeds only when every patch still fits.
    const merged = current !== null && ancestor !== null ? applyAll(current, sides.map((s) => s.change)) : null;
    if (merged !== null) {
      writes.push({ path, content: merged, current, ancestor, from, sides: versions, how: 'auto_merged' });
      continue;
    }
    conflicts.push({
      path,
      reason: sides.length > 1 ? 'both_changed' : 'base_changed',
      ancestor,
      current,
      sides: versions,
    });
  }
  return { writes, conflicts };
}

/** The content a resolution stands for, or why it cannot be used. */
export function resolvedContent(conflict: Conflict, resolution: Resolution): { content: string | null } | { error: string } {
  switch (resolution.take) {
    case 'base':
      return { content: conflict.current };
    case 'content':
      return { content: resolution.content };
    case 'workspace': {
      const side = conflict.sides.find((s) => s.workspaceId === resolution.workspaceId);
      return side ? { content: side.after } : { error: `workspace "${resolution.workspaceId}" did not change ${conflict.path}; it changed: ${conflict.sides.map((s) => s.workspaceId).join(', ')}` };
    }
  }
}

async function put(fs: SandboxFs, abs: string, content: string | null): Promise<void> {
  if (content === null) await fs.rm(abs, { force: true });
  else await fs.writeFile(abs, content);
}

/**
 * Writes the plan's files and the resolved conflicts. A conflict without a resolution is left
 * alone (returned). A file whose base content moved since the plan is not written: it comes back
 * as a `base_changed` conflict, so a stale plan can never overwrite newer work.
 */
export async function applyMerge(fs: SandboxFs, workdir: string, plan: MergePlan, resolutions: ReadonlyMap<string, Resolution> = new Map()): Promise<MergeResult> {
  const applied: string[] = [];
  const left: Conflict[] = [];
  for (const w of plan.writes) {
    if (w.how === 'unchanged') continue;
    const abs = `${workdir}/${w.path}`;
    const now = await readOrNull(fs, abs);
    if (now !== w.current) {
      left.push({ path: w.path, reason: 'base_changed', ancestor: w.ancestor, current: now, sides: w.sides });
      continue;
    }
    await put(fs, abs, w.content);
    applied.push(w.path);
  }
  for (const c of plan.conflicts) {
    const r = resolutions.get(c.path);
    if (!r) {
      left.push(c);
      continue;
    }
    const abs = `${workdir}/${c.path}`;
    const now = await readOrNull(fs, abs);
    if (now !== c.current) {
      left.push({ ...c, reason: 'base_changed', current: now });
      continue;
    }
    const content = resolvedContent(c, r);
    if ('error' in content) throw new Error(content.error);
    await put(fs, abs, content.content);
    applied.push(c.path);
  }
  return { applied: applied.sort(), conflicts: left };
}
