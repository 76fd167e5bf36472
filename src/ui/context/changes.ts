/**
 * One `CompactionChange` in words for the ladder's detail: a heading, what it touched (ids,
 * ranges) and the text to show (a preview or a summary).
 */
import type { CompactionChange } from '../../harness/index.ts';

export type ChangeView = { kind: CompactionChange['kind']; title: string; meta: string[]; text: string };

const n = (x: number) => x.toLocaleString('en-US');

export function describeChange(c: CompactionChange): ChangeView {
  switch (c.kind) {
    case 'tool_result_ref':
      return {
        kind: c.kind,
        title: `${c.toolName ?? 'tool'} result → reference`,
        meta: [`id ${c.toolUseId}`, `message ${c.messageIndex}`, `${n(c.chars)} chars kept in the store`],
        text: c.preview,
      };
    case 'messages_removed':
      return {
        kind: c.kind,
        title: `${c.count} message${c.count === 1 ? '' : 's'} dropped`,
        meta: [`messages ${c.from}–${c.to}`],
        text: c.preview,
      };
    case 'range_collapsed':
      return {
        kind: c.kind,
        title: c.isNew ? 'range collapsed (new)' : 'range collapsed (reused from the store)',
        meta: [`messages ${c.from}–${c.to}`, 'projection only: the stored history keeps them'],
        text: c.summary,
      };
    case 'history_summarised':
      return {
        kind: c.kind,
        title: 'history summarised',
        meta: [`${c.removed} message${c.removed === 1 ? '' : 's'} replaced`, `${c.kept} kept verbatim`],
        text: c.summary,
      };
    case 'trims_deferred':
      return {
        kind: c.kind,
        title: `${c.toolUseIds.length} trim${c.toolUseIds.length === 1 ? '' : 's'} deferred (the cache is healthy)`,
        meta: c.toolUseIds.map((id) => `id ${id}`),
        text: '',
      };
  }
}
