/**
 * Loads the before/after of one edit for the diff view: the span from the shown events, the two
 * file states from the session log's snapshots (`filesAt`). When the log has no snapshot (storage
 * unavailable), an `edit` call still has its own strings, shown as such; otherwise it says why not.
 */
import type { TraceEvent } from '../../harness/index.ts';
import type { FilesAt } from '../state/run-controller.svelte.ts';
import { diffRows, diffSpan, type DiffRow } from './edit-diff.ts';
import { callStates } from './replay-turn.ts';

export type EditDiff =
  /** `from`: the two snapshots; `replay`, this call's own change within a turn of several (see replay-turn.ts); `input`, an edit's own strings. */
  | { ok: true; path: string; rows: DiffRow[]; created: boolean; deleted: boolean; sharedWith: string[]; from: 'snapshots' | 'replay' | 'input' }
  | { ok: false; why: string };

export type DiffSource = { events: readonly TraceEvent[]; workdir: string; filesAt: ((count: number) => Promise<FilesAt>) | null };

function fromInput(events: readonly TraceEvent[], toolUseId: string, why: string): EditDiff {
  const start = events.find((e) => e.type === 'tool.started' && e.toolUseId === toolUseId) as Extract<TraceEvent, { type: 'tool.started' }> | undefined;
  const input = start?.input as { file_path?: string; old_string?: string; new_string?: string } | undefined;
  if (start?.name === 'edit' && typeof input?.old_string === 'string' && typeof input.new_string === 'string') {
    return { ok: true, path: input.file_path ?? '?', rows: diffRows(input.old_string, input.new_string), created: false, deleted: false, sharedWith: [], from: 'input' };
  }
  return { ok: false, why };
}

export async function loadEditDiff(src: DiffSource, toolUseId: string): Promise<EditDiff> {
  const span = diffSpan(src.events, toolUseId, src.workdir);
  if (!span) return { ok: false, why: 'this call changed no file (it failed, or has not finished)' };
  if (span.path === null) return { ok: false, why: 'this turn changed several files and the call does not name one' };
  if (span.afterCount === null) return fromInput(src.events, toolUseId, 'the files after this call are recorded when the turn’s tools finish; step on');
  if (!src.filesAt) return fromInput(src.events, toolUseId, 'this conversation is not recorded, so its earlier files are unknown');
  const [before, after] = await Promise.all([src.filesAt(span.beforeCount), src.filesAt(span.afterCount)]);
  if ('unavailable' in before) return fromInput(src.events, toolUseId, before.unavailable);
  if ('unavailable' in after) return fromInput(src.events, toolUseId, after.unavailable);
  const a = before.snapshot.files[span.path];
  const b = after.snapshot.files[span.path];
  if (a === undefined && b === undefined) return { ok: false, why: `${span.path} is in neither snapshot (too large, or outside the project)` };
  // Several calls of the turn changed the file: replayed, each shows its own change.
  const own = span.sharedWith.length > 0 ? callStates(src.events, toolUseId, span.sharedWith, span.path, src.workdir, a, b) : null;
  if (own) {
    return { ok: true, path: span.path, rows: diffRows(own.before ?? '', own.after ?? ''), created: own.before === undefined, deleted: own.after === undefined, sharedWith: [], from: 'replay' };
  }
  return { ok: true, path: span.path, rows: diffRows(a ?? '', b ?? ''), created: a === undefined, deleted: b === undefined, sharedWith: span.sharedWith, from: 'snapshots' };
}
