/**
 * Extraction plus storage, for the loop's caller after an exchange: read what is kept, extract,
 * write the new entries. Store failures become problems in the event, never exceptions.
 */
import type { Message } from '../messages.ts';
import type { IdGen, MemoryStore, ModelClient } from '../ports.ts';
import { extractByModel, extractByRules, lastExchange, type MemoryExtractedEvent } from './extract.ts';
import { blocksOf } from '../messages.ts';

export type RememberOptions = {
  store: MemoryStore;
  /** The history after the run; the last exchange is what gets read. */
  messages: readonly Message[];
  ids: IdGen;
  now: number;
  /** CLAUDE.md-style notes whose `# memory:` lines are kept (rules path). */
  notes?: readonly string[];
  /** With a model: extraction by a model call. Without: the deterministic rules. */
  model?: { client: ModelClient; model: string; signal: AbortSignal };
};

export async function rememberExchange(opts: RememberOptions): Promise<MemoryExtractedEvent> {
  const via = opts.model ? 'model' : 'rules';
  let existing: Awaited<ReturnType<MemoryStore['list']>>;
  try {
    existing = await opts.store.list();
  } catch (err) {
    return { type: 'memory.extracted', via, added: [], duplicates: [], problems: [`memories were not read: ${errText(err)}`] };
  }
  const base = { existing, ids: opts.ids, now: opts.now };
  const { entries, event } = opts.model
    ? await extractByModel(opts.model.client, { ...base, model: opts.model.model, messages: opts.messages, signal: opts.model.signal })
    : extractByRules({ ...base, prompt: promptOf(opts.messages), ...(opts.notes ? { notes: opts.notes } : {}) });
  const saved: MemoryExtractedEvent['added'] = [];
  const problems = [...event.problems];
  for (const e of entries) {
    try {
      await opts.store.put(e);
      saved.push({ id: e.id, content: e.content, source: e.source });
    } catch (err) {
      problems.push(`"${e.content.slice(0, 60)}" was not saved: ${errText(err)}`);
    }
  }
  return { ...event, added: saved, problems };
}

/** The person's words in the last exchange (text blocks of its first message). */
function promptOf(messages: readonly Message[]): string {
  const first = lastExchange(messages)[0];
  if (!first || first.role !== 'user') return '';
  return blocksOf(first)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('\n');
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
