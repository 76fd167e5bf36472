/**
 * Extraction: after an exchange, the facts worth keeping become memory entries.
 *
 * - {@link extractByRules} is deterministic (tests, scripted scenarios): lines of the user's
 *   prompt that start with `remember:` or `Remember that …` (source `explicit`), and
 *   `# memory: …` lines in CLAUDE.md-style notes (source `project_file`).
 * - {@link extractByModel} asks the model (see `extract-prompt.ts`); its facts are `extracted`.
 *
 * Both drop a fact that an existing entry (or an earlier fact of the same batch) already says,
 * compared in normal form (`normalizeFact`). Neither writes to a store: see `remember.ts`.
 */
import type { Message, Usage } from '../messages.ts';
import { emptyUsage } from '../messages.ts';
import type { IdGen, MemoryEntry, MemorySource, ModelClient } from '../ports.ts';
import type { TraceEventBody } from '../trace.ts';
import { MAX_MEMORY_CHARS, normalizeFact } from './entry.ts';
import { buildExtractRequest, parseFacts, type Candidate } from './extract-prompt.ts';

export type MemoryExtractedEvent = Extract<TraceEventBody, { type: 'memory.extracted' }>;

export type Extraction = { entries: MemoryEntry[]; event: MemoryExtractedEvent };

export type ExtractBase = {
  /** The entries already kept, to dedupe against. */
  existing: readonly MemoryEntry[];
  ids: IdGen;
  now: number;
};

const REMEMBER_COLON = /^\s*remember\s*:\s*(.+)$/i;
const REMEMBER_THAT = /^\s*remember\s+that\s+(.+)$/i;
const NOTE_LINE = /^\s*#\s*memory\s*:\s*(.+)$/i;

/** Deterministic extraction from the user's prompt and from notes (CLAUDE.md-style texts). */
export function extractByRules(opts: ExtractBase & { prompt?: string; notes?: readonly string[] }): Extraction {
  const found: (Candidate & { source: MemorySource })[] = [];
  // "Remember: …" may open a line or a sentence ("Fix the test. Remember: we deploy on Tuesdays.").
  const sentences = (opts.prompt ?? '').split(/\r?\n/).flatMap((line) => line.split(/(?<=[.!?])\s+(?=remember\b)/i));
  for (const sentence of sentences) {
    const m = REMEMBER_COLON.exec(sentence) ?? REMEMBER_THAT.exec(sentence);
    if (m) found.push({ content: capitalise(m[1]!.trim()), source: 'explicit' });
  }
  for (const note of opts.notes ?? []) {
    for (const line of note.split(/\r?\n/)) {
      const m = NOTE_LINE.exec(line);
      if (m) found.push({ content: m[1]!.trim(), source: 'project_file' });
    }
  }
  const problems = found.filter((f) => f.content.length > MAX_MEMORY_CHARS).map((f) => `a fact of ${f.content.length} characters is too long to be a memory`);
  return assemble(found.filter((f) => f.content.length <= MAX_MEMORY_CHARS), opts, 'rules', problems);
}

/**
 * Extraction by a no-tools model call over the last exchange. Never throws: a failed or cut call
 * is a problem in the event and no entries.
 */
export async function extractByModel(
  client: ModelClient,
  opts: ExtractBase & { model: string; messages: readonly Message[]; signal: AbortSignal; maxTokens?: number },
): Promise<Extraction> {
  const request = buildExtractRequest(lastExchange(opts.messages), opts.model, opts.maxTokens);
  const texts = new Map<number, string>();
  let stopped = false;
  // The call costs money: its usage goes into the event, priced as `memory_extraction` (cost/ledger.ts).
  let usage: Usage | null = null;
  const priced = (x: Extraction): Extraction => (usage ? { ...x, event: { ...x.event, call: { model: opts.model, usage } } } : x);
  for await (const ev of client.stream(request, opts.signal)) {
    if (ev.type === 'error') return priced(assemble([], opts, 'model', [`the extraction call failed: ${ev.error.message}`]));
    if (ev.type === 'message_start') usage = { ...emptyUsage(), ...ev.message.usage };
    if (ev.type === 'message_delta' && ev.usage) usage = { ...(usage ?? emptyUsage()), ...definedUsage(ev.usage) };
    if (ev.type === 'content_block_start' && ev.content_block.type === 'text') texts.set(ev.index, ev.content_block.text);
    if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') texts.set(ev.index, (texts.get(ev.index) ?? '') + ev.delta.text);
    if (ev.type === 'message_stop') stopped = true;
  }
  if (!stopped) return priced(assemble([], opts, 'model', ['the extraction call ended before the reply was complete; nothing was kept']));
  const reply = [...texts.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t).join('');
  const { facts, problems } = parseFacts(reply);
  return priced(assemble(facts.map((f) => ({ ...f, source: 'extracted' as const })), opts, 'model', problems));
}

/** From the last message that is a person's prompt (text, not tool results) to the end. */
export function lastExchange(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    const isPrompt = typeof m.content === 'string' || m.content.some((b) => b.type === 'text');
    if (isPrompt) return messages.slice(i);
  }
  return [...messages];
}

function assemble(
  found: readonly (Candidate & { source: MemorySource })[],
  opts: ExtractBase,
  via: 'model' | 'rules',
  problems: string[],
): Extraction {
  const known = new Map(opts.existing.map((e) => [normalizeFact(e.content), e.id]));
  const entries: MemoryEntry[] = [];
  const duplicates: MemoryExtractedEvent['duplicates'] = [];
  for (const f of found) {
    const key = normalizeFact(f.content);
    if (key === '') continue;
    // Memories are plain text in storage and go into later prompts: a credential never becomes one.
    if (looksLikeSecret(f.content)) {
      problems.push('a fact that looks like a secret (an API key or token) was not kept');
      continue;
    }
    const of = known.get(key);
    if (of !== undefined) {
      duplicates.push({ content: f.content, of });
      continue;
    }
    const entry: MemoryEntry = {
      id: opts.ids.next('mem'),
      content: f.content,
      source: f.source,
      createdAt: opts.now,
      updatedAt: opts.now,
      ...(f.tags ? { tags: f.tags } : {}),
    };
    known.set(key, entry.id);
    entries.push(entry);
  }
  return {
    entries,
    event: { type: 'memory.extracted', via, added: entries.map((e) => ({ id: e.id, content: e.content, source: e.source })), duplicates, problems },
  };
}

/** An Anthropic key (`sk-ant-…`), another `sk-…` key, or a long token after key / token / secret / password. */
const SECRET = /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}|\b(?:api[_ -]?key|token|secret|password)\b\W{0,3}\s*[A-Za-z0-9_\-./+=]{16,}/i;

export function looksLikeSecret(text: string): boolean {
  return SECRET.test(text);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The fields a `message_delta` usage actually carries (it may repeat or leave out input figures). */
function definedUsage(u: Partial<Usage>): Partial<Usage> {
  return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null)) as Partial<Usage>;
}
