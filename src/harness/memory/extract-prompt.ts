/**
 * The model path of extraction: a short no-tools request asking for durable facts as JSON
 * lines, and a defensive parser for whatever comes back (code fences, bullets, a JSON array, a
 * stray sentence, "NONE").
 */
import { blocksOf, toolResultText, type Message, type ModelRequest } from '../messages.ts';
import { MAX_MEMORY_CHARS } from './entry.ts';

/** Facts kept from one reply at most. */
export const MAX_FACTS_PER_REPLY = 8;
/** How much of the exchange the extraction call sees. */
const TRANSCRIPT_CHARS = 8_000;
const BLOCK_CHARS = 600;

export const EXTRACT_SYSTEM =
  'You keep the long-term memory of a coding agent. From the exchange you are given, write down the facts ' +
  'worth knowing in a later session: the user\'s preferences, project conventions, decisions and why, commands ' +
  'that work. Leave out temporary state, debugging output, file contents and anything the code itself says.\n' +
  'Answer with one JSON object per line and nothing else, at most 5 lines, each like:\n' +
  '{"fact": "The project uses pnpm, not npm.", "tags": ["tooling"]}\n' +
  'If nothing is worth keeping, answer NONE.';

export type Candidate = { content: string; tags?: string[] };

/** The extraction request for the last exchange of `messages` (its final user prompt onwards). */
export function buildExtractRequest(messages: readonly Message[], model: string, maxTokens = 600): ModelRequest {
  return {
    model,
    max_tokens: maxTokens,
    system: EXTRACT_SYSTEM,
    messages: [{ role: 'user', content: `<exchange>\n${renderExchange(messages)}\n</exchange>` }],
  };
}

/** The exchange as plain text, most recent part kept when it is long. */
export function renderExchange(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text') lines.push(`${m.role === 'user' ? 'User' : 'Assistant'}: ${clip(b.text)}`);
      else if (b.type === 'tool_use') lines.push(`Assistant called ${b.name} ${clip(JSON.stringify(b.input))}`);
      else if (b.type === 'tool_result') {
        const text = toolResultText(b);
        lines.push(`Tool result${b.is_error ? ' (error)' : ''}: ${clip(text)}`);
      }
    }
  }
  const all = lines.join('\n');
  return all.length > TRANSCRIPT_CHARS ? `…\n${all.slice(-TRANSCRIPT_CHARS)}` : all;
}

function clip(s: string): string {
  return s.length > BLOCK_CHARS ? `${s.slice(0, BLOCK_CHARS)}…` : s;
}

/**
 * Facts from a reply. Accepts `{"fact": …}` / `{"content": …}` objects one per line, a JSON array
 * of them, JSON strings, with or without code fences or list bullets. Anything else is reported
 * in `problems` by line number, never thrown.
 */
export function parseFacts(reply: string): { facts: Candidate[]; problems: string[] } {
  const facts: Candidate[] = [];
  const problems: string[] = [];
  const add = (value: unknown, lineNo: number) => {
    const fact = factOf(value);
    if (typeof fact === 'string') problems.push(`line ${lineNo}: ${fact}`);
    else if (facts.length >= MAX_FACTS_PER_REPLY) problems.push(`line ${lineNo}: more than ${MAX_FACTS_PER_REPLY} facts; the rest were dropped`);
    else facts.push(fact);
  };
  reply.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim().replace(/^(?:[-*•]|\d+[.)])\s+/, '');
    if (line === '' || /^(`{3,}|~{3,})/.test(line) || /^none\.?$/i.test(line)) return;
    let value: unknown;
    try {
      value = JSON.parse(line.replace(/,$/, ''));
    } catch {
      problems.push(`line ${i + 1}: not JSON, ignored: ${line.slice(0, 80)}`);
      return;
    }
    if (Array.isArray(value)) value.forEach((v) => add(v, i + 1));
    else add(value, i + 1);
  });
  return { facts, problems };
}

function factOf(value: unknown): Candidate | string {
  let content: unknown = value;
  let tags: unknown;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    content = o.fact ?? o.content ?? o.memory;
    tags = o.tags;
  }
  if (typeof content !== 'string' || content.trim() === '') return 'no "fact" text';
  const text = content.trim();
  if (text.length > MAX_MEMORY_CHARS) return `a fact of ${text.length} characters is too long to be a memory`;
  const cleanTags = Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string' && t.trim() !== '').map((t) => t.trim()) : [];
  return cleanTags.length > 0 ? { content: text, tags: cleanTags } : { content: text };
}
