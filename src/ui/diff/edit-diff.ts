/**
 * The diff of one agent edit (a `write`, `edit` or `revert` call), from the snapshots the session
 * log already has. The log snapshots the files before `run.start` and before each `sandbox.changed`
 * (after a turn's tools wrote), so for a call:
 *
 * - *before* is the files as of its `tool.started` (the last snapshot before it);
 * - *after* is the files as of the first `sandbox.changed` that follows its result.
 *
 * Edits run one at a time, each batch followed by its own `sandbox.changed`, so one agent's edits
 * have snapshots of their own. Calls that still finish inside one window (parallel subagents
 * editing one shared file) share the two snapshots: the span names them (`sharedWith`), and
 * replay-turn.ts replays their inputs to give each its own change. Pure: no DOM, no store.
 */
import { diffLines } from 'diff';
import type { TraceEvent } from '../../harness/index.ts';

export const DIFF_TOOLS: ReadonlySet<string> = new Set(['write', 'edit', 'revert']);

export type DiffSpan = {
  /** Project-relative path of the file the call changed (a revert with no path: found from the change). */
  path: string | null;
  /** `filesAt` counts (1-based event counts) of the before and after states; after is null while the turn's tools are still running. */
  beforeCount: number;
  afterCount: number | null;
  /** Other calls between the two snapshots that changed the same file. */
  sharedWith: string[];
};

/** `path` relative to the project (`workdir`), as the snapshots key files. */
export const projectRelative = (path: string, workdir: string): string => (path.startsWith(`${workdir}/`) ? path.slice(workdir.length + 1) : path.replace(/^\.\//, ''));

function pathOf(input: unknown): string | null {
  const p = (input as { file_path?: unknown } | null)?.file_path;
  return typeof p === 'string' && p !== '' ? p : null;
}

/** Where the before/after of call `toolUseId` are in `events`, or null when it is not a (finished, successful) edit. */
export function diffSpan(events: readonly TraceEvent[], toolUseId: string, workdir: string): DiffSpan | null {
  const started = events.findIndex((e) => e.type === 'tool.started' && e.toolUseId === toolUseId);
  if (started < 0) return null;
  const start = events[started] as Extract<TraceEvent, { type: 'tool.started' }>;
  if (!DIFF_TOOLS.has(start.name)) return null;
  const resultAt = events.findIndex((e, i) => i > started && e.type === 'tool.result' && e.toolUseId === toolUseId);
  if (resultAt < 0) return null;
  const result = events[resultAt] as Extract<TraceEvent, { type: 'tool.result' }>;
  if (result.isError) return null;
  // After: the first snapshot once its result is in (any agent's turn snapshots the shared files).
  const changedAt = events.findIndex((e, i) => i > resultAt && e.type === 'sandbox.changed' && e.origin !== 'user');
  const nextTurn = events.findIndex((e, i) => i > resultAt && e.type === 'turn.start' && e.agentId === start.agentId);
  const changed = changedAt >= 0 && (nextTurn < 0 || changedAt < nextTurn) ? (events[changedAt] as Extract<TraceEvent, { type: 'sandbox.changed' }>) : null;
  let path = pathOf(start.input);
  if (path) path = projectRelative(path, workdir);
  else if (changed && changed.paths.length === 1) path = projectRelative(changed.paths[0]!, workdir);
  // Before: the last snapshot before it started. Calls that finished between the two snapshots
  // changed files in the same window: those on this file (or on a file they do not name) share it.
  const beforeAt = events.findLastIndex((e, i) => i < started && (e.type === 'sandbox.changed' || e.type === 'run.start'));
  const startedById = new Map<string, Extract<TraceEvent, { type: 'tool.started' }>>();
  const sharedWith: string[] = [];
  for (let i = 0; i < (changed ? changedAt : events.length); i++) {
    const e = events[i]!;
    if (e.type === 'tool.started') startedById.set(e.toolUseId, e);
    if (i <= beforeAt || e.type !== 'tool.result' || e.toolUseId === toolUseId || e.isError) continue;
    const other = startedById.get(e.toolUseId);
    if (!other || !DIFF_TOOLS.has(other.name)) continue;
    const p = pathOf(other.input);
    if (p === null || (path !== null && projectRelative(p, workdir) === path)) sharedWith.push(e.toolUseId);
  }
  return { path, beforeCount: started + 1, afterCount: changed ? changedAt + 1 : null, sharedWith };
}

export type DiffRow = { kind: 'add' | 'del' | 'same' | 'skip'; text: string; oldLine?: number; newLine?: number };

/**
 * Unified rows: every changed line, with `context` unchanged lines around each change; longer
 * unchanged runs fold into one `skip` row saying how many lines it hides.
 */
export function diffRows(before: string, after: string, context = 3): DiffRow[] {
  const all: DiffRow[] = [];
  let o = 1;
  let n = 1;
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) {
      if (part.added) all.push({ kind: 'add', text, newLine: n++ });
      else if (part.removed) all.push({ kind: 'del', text, oldLine: o++ });
      else all.push({ kind: 'same', text, oldLine: o++, newLine: n++ });
    }
  }
  const near = all.map(() => false);
  all.forEach((r, i) => {
    if (r.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(all.length - 1, i + context); j++) near[j] = true;
  });
  const out: DiffRow[] = [];
  let hidden = 0;
  all.forEach((r, i) => {
    if (near[i]) {
      if (hidden) out.push({ kind: 'skip', text: `${hidden} unchanged line${hidden === 1 ? '' : 's'}` });
      hidden = 0;
      out.push(r);
    } else hidden++;
  });
  if (hidden) out.push({ kind: 'skip', text: `${hidden} unchanged line${hidden === 1 ? '' : 's'}` });
  return out;
}

export function diffStats(rows: readonly DiffRow[]): { added: number; removed: number } {
  return { added: rows.filter((r) => r.kind === 'add').length, removed: rows.filter((r) => r.kind === 'del').length };
}
