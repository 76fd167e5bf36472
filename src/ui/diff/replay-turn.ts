/**
 * Each call's own before and after when several calls of one turn changed the same file. The
 * session log snapshots the files once per turn (before its `sandbox.changed`), so those calls
 * share one pair of snapshots. Their inputs say exactly what each did — a `write` its content, an
 * `edit` its strings (applied as the tool applies them) — so the turn is replayed from its before
 * state, in the order the calls finished. The replay is trusted only when it ends at exactly the
 * turn's after state; anything else (a `revert`, a command that also touched the file) gives null,
 * and the view falls back to the shared diff. Pure: no DOM, no store.
 */
import type { TraceEvent } from '../../harness/index.ts';
import { applyEdit } from '../../harness/tools/light.ts';
import { projectRelative } from './edit-diff.ts';

type Started = Extract<TraceEvent, { type: 'tool.started' }>;
type Result = Extract<TraceEvent, { type: 'tool.result' }>;

/** A file's text, or undefined where it does not exist. */
export type FileText = string | undefined;

/**
 * The file `path` before and after call `toolUseId`, replayed over the calls `group` (it and the
 * others of its turn that changed the file) from `turnBefore` to `turnAfter`; null when the replay
 * cannot say.
 */
export function callStates(
  events: readonly TraceEvent[],
  toolUseId: string,
  group: readonly string[],
  path: string,
  workdir: string,
  turnBefore: FileText,
  turnAfter: FileText,
): { before: FileText; after: FileText } | null {
  const ids = new Set([toolUseId, ...group]);
  const started = new Map<string, Started>();
  const finished: Result[] = [];
  for (const e of events) {
    if (e.type === 'tool.started' && ids.has(e.toolUseId)) started.set(e.toolUseId, e);
    else if (e.type === 'tool.result' && ids.has(e.toolUseId)) finished.push(e);
  }
  if (finished.length !== ids.size) return null;
  let text = turnBefore;
  let own: { before: FileText; after: FileText } | null = null;
  for (const result of finished) {
    const start = started.get(result.toolUseId);
    if (!start) return null;
    const before = text;
    // A failed call changed nothing; one that names another file is not this file's.
    if (!result.isError) {
      const input = (start.input ?? {}) as { file_path?: unknown; content?: unknown; old_string?: unknown; new_string?: unknown; replace_all?: unknown };
      if (typeof input.file_path !== 'string' || projectRelative(input.file_path, workdir) !== path) return null;
      if (start.name === 'write' && typeof input.content === 'string') text = input.content;
      else if (start.name === 'edit' && text !== undefined && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
        const next = applyEdit(text, { old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all === true });
        if (next === null) return null;
        text = next;
      } else return null;
    }
    if (result.toolUseId === toolUseId) own = { before, after: text };
  }
  return text === turnAfter ? own : null;
}
