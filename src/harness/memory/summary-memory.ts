/**
 * A compaction's summary becomes a memory (seed 003 s06, seed 000 S5): when an auto, reactive or
 * manual (`/compact`) compaction replaces the history, its summary is saved as one entry with
 * source `compaction_summary`, tagged with the trigger and the turn it was written at (the store
 * the caller passes tags the session or document, `origin.ts`). At the next session's first
 * prompt the newest such summary is offered even when no word of the prompt matches it
 * (`select.ts`): it is where the work left off. An untrusted document's store refuses it, like
 * any memory of that document.
 */
import type { IdGen, MemoryEntry, MemoryStore } from '../ports.ts';
import { MAX_MEMORY_CHARS } from './entry.ts';
import type { MemoryExtractedEvent } from './extract.ts';

export const SUMMARY_TAG = 'compaction';

export type SummaryMemoryOptions = {
  store: MemoryStore;
  summary: string;
  trigger: 'auto' | 'reactive' | 'manual';
  /** The turn the summary was written before. */
  turn: number;
  ids: IdGen;
  now: number;
};

/** The entry for `summary`: one line of context, then the summary, cut to what a memory may hold. */
export function summaryMemoryEntry(opts: Omit<SummaryMemoryOptions, 'store'>): MemoryEntry {
  const head = `Where an earlier session left off (its ${opts.trigger === 'manual' ? '/compact' : 'auto-compact'} summary at turn ${opts.turn}): `;
  const body = opts.summary.replace(/\s+/g, ' ').trim();
  const room = MAX_MEMORY_CHARS - head.length;
  return {
    id: opts.ids.next('mem'),
    content: head + (body.length > room ? `${body.slice(0, room - 1)}…` : body),
    source: 'compaction_summary',
    createdAt: opts.now,
    updatedAt: opts.now,
    tags: [SUMMARY_TAG, opts.trigger, `turn-${opts.turn}`],
  };
}

/** Saves the summary; a store that refuses (an untrusted document) or fails is a problem in the event. */
export async function rememberSummary(opts: SummaryMemoryOptions): Promise<MemoryExtractedEvent> {
  const entry = summaryMemoryEntry(opts);
  try {
    // Replays use sequential ids that start over each session: never overwrite an earlier session's memory.
    for (let i = 0; i < 10_000 && (await opts.store.get(entry.id)); i++) entry.id = opts.ids.next('mem');
    await opts.store.put(entry);
    return { type: 'memory.extracted', via: 'compaction', added: [{ id: entry.id, content: entry.content, source: entry.source }], duplicates: [], problems: [] };
  } catch (err) {
    return { type: 'memory.extracted', via: 'compaction', added: [], duplicates: [], problems: [`the summary was not saved as a memory: ${err instanceof Error ? err.message : String(err)}`] };
  }
}
