/**
 * Builders and a seeded random history generator for the context tests and the context bench.
 */
import type { ContentBlock, Message, ToolSchema } from '../../src/harness/messages.ts';
import type { TraceEventBody } from '../../src/harness/trace.ts';
import type { PreparedContext } from '../../src/harness/context/pipeline.ts';
import { drainGenerator } from '../helpers/events.ts';

/** mulberry32: a small seeded PRNG, so every failure reproduces from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

export function bigText(chars: number, tag = 'x'): string {
  const line = `${tag}: the quick brown fox jumps over the lazy dog 0123456789\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

export const tools: ToolSchema[] = ['read', 'bash', 'grep'].map((name) => ({
  name,
  description: `The ${name} tool. `.repeat(40),
  input_schema: { type: 'object', properties: { arg: { type: 'string' } } },
}));

export const SYSTEM = 'You are a coding agent. '.repeat(200);

let idCounter = 0;
/** An (assistant, user) exchange: `results` sizes in chars; empty means a plain text reply. */
export function exchange(results: number[], opts: { idPrefix?: string; userText?: string; name?: string } = {}): [Message, Message] {
  const ids = results.map(() => `${opts.idPrefix ?? 'toolu'}_${++idCounter}`);
  const name = opts.name ?? 'read';
  const assistant: Message = {
    role: 'assistant',
    content: [
      { type: 'text', text: `Working on step ${idCounter}.` },
      ...ids.map((id, i): ContentBlock => ({ type: 'tool_use', id, name, input: name === 'bash' ? { command: `echo ${i}` } : { file_path: `src/f${idCounter}-${i}.ts` } })),
    ],
  };
  const userBlocks: ContentBlock[] = ids.map((id, i) => ({ type: 'tool_result', tool_use_id: id, content: bigText(results[i]!, id) }));
  if (opts.userText || userBlocks.length === 0) userBlocks.push({ type: 'text', text: opts.userText ?? 'go on' });
  return [assistant, { role: 'user', content: userBlocks }];
}

export function history(first: string, exchanges: number[][]): Message[] {
  const out: Message[] = [{ role: 'user', content: first }];
  for (const r of exchanges) out.push(...exchange(r));
  return out;
}

/** A random valid history: 0–`maxExchanges` exchanges, 0–3 tool calls each, results up to `maxChars`. */
export function randomHistory(r: () => number, maxExchanges: number, maxChars: number): Message[] {
  const n = int(r, 0, maxExchanges);
  const ex: number[][] = [];
  for (let i = 0; i < n; i++) {
    const calls = int(r, 0, 3);
    ex.push(Array.from({ length: calls }, () => (r() < 0.2 ? int(r, 1, maxChars) : int(r, 1, 3_000))));
  }
  const msgs = history(`Task ${int(r, 1, 1000)}: fix the bug.`, ex);
  // Sometimes the person adds words to a tool-result message.
  if (r() < 0.3 && msgs.length > 2) {
    const last = msgs[msgs.length - 1]!;
    msgs[msgs.length - 1] = { role: 'user', content: [...(last.content as ContentBlock[]), { type: 'text', text: 'also check the tests' }] };
  }
  return msgs;
}

/** Drains a prepareContext generator: its events and its result. */
export function drain(gen: AsyncGenerator<TraceEventBody, PreparedContext>): Promise<{ events: TraceEventBody[]; result: PreparedContext }> {
  return drainGenerator(gen);
}

export function layerEvents(events: TraceEventBody[]) {
  return events.filter((e): e is Extract<TraceEventBody, { type: 'compaction.layer' }> => e.type === 'compaction.layer');
}

export function layer(events: TraceEventBody[], name: string) {
  const e = layerEvents(events).find((x) => x.layer === name);
  if (!e) throw new Error(`no ${name} event`);
  return e;
}
