/**
 * What an agent changed in its workspace: one entry per file whose content differs from the
 * snapshot taken when the workspace was created, with a unified diff for the merge view.
 */
import { createTwoFilesPatch, diffLines } from 'diff';
import type { ChangeKind } from './types.ts';

export type { ChangeKind } from './types.ts';

export type FileChange = {
  /** Relative to the working directory, e.g. `src/app.ts`. */
  path: string;
  kind: ChangeKind;
  /** The snapshot's content; null when the agent added the file. */
  before: string | null;
  /** The agent's content; null when it deleted the file. */
  after: string | null;
  /** Unified diff snapshot → agent (`a/…`, `b/…` headers, 3 lines of context). */
  patch: string;
  addedLines: number;
  removedLines: number;
};

/** Files by relative path → content. */
export type FileMap = ReadonlyMap<string, string>;

export function fileChange(path: string, before: string | null, after: string | null): FileChange {
  const kind: ChangeKind = before === null ? 'added' : after === null ? 'deleted' : 'modified';
  let addedLines = 0;
  let removedLines = 0;
  for (const part of diffLines(before ?? '', after ?? '')) {
    if (part.added) addedLines += part.count ?? 0;
    if (part.removed) removedLines += part.count ?? 0;
  }
  const patch = createTwoFilesPatch(before === null ? '/dev/null' : `a/${path}`, after === null ? '/dev/null' : `b/${path}`, before ?? '', after ?? '');
  return { path, kind, before, after, patch, addedLines, removedLines };
}

/** Every file that differs between two trees, sorted by path. */
export function diffTrees(before: FileMap, after: FileMap): FileChange[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  const out: FileChange[] = [];
  for (const path of [...paths].sort()) {
    const b = before.get(path) ?? null;
    const a = after.get(path) ?? null;
    if (b !== a) out.push(fileChange(path, b, a));
  }
  return out;
}
