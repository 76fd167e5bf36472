/**
 * A request seen as the API's cache sees it: one flat sequence, tools → system → messages, each
 * item carrying the hash of everything up to and including it and the tokens so far. Two requests
 * share a cached prefix exactly as far as these hashes agree. `cache_control` markers are left
 * out of the hashes: moving a breakpoint does not change the content.
 */
import type { ContentBlock, Message, TextBlock, ToolSchema } from '../messages.ts';
import { chain, hash53 } from './hash.ts';
import { blockTokens, countsLike, MESSAGE_OVERHEAD_TOKENS, toolSchemaTokens } from './tokens.ts';

export type PrefixRequest = {
  model?: string;
  system?: string | TextBlock[];
  tools?: ToolSchema[];
  messages: Message[];
};

export type PrefixItem = {
  /** Hash of the prefix up to and including this item. */
  hash: number;
  /** Estimated tokens of the prefix up to and including this item. */
  tokens: number;
  part: 'tools' | 'system' | 'messages';
  /** A content block (counts for the 20-block look-back); false for a message boundary. */
  isBlock: boolean;
  breakpoint: boolean;
  /** Tool index, system block index, or message index. */
  index: number;
};

const itemHash = new WeakMap<object, number>();

function canonicalHash(obj: ContentBlock | ToolSchema): number {
  const hit = itemHash.get(obj);
  if (hit !== undefined) return hit;
  const { cache_control: _cc, ...rest } = obj as ContentBlock & { cache_control?: unknown };
  const h = hash53(JSON.stringify(rest));
  itemHash.set(obj, h);
  return h;
}

/**
 * Marks `copy` (the same item with a `cache_control` marker added or removed) as hashing (and
 * counting) like `original`: breakpoints are re-placed on copies every turn, and without this each copy (the
 * last tool, the system prompt, a tool result) would be serialised and hashed again per turn.
 */
export function hashesLike<T extends object>(copy: T, original: T): T {
  itemHash.set(copy, canonicalHash(original as unknown as ContentBlock | ToolSchema));
  countsLike(copy, original); // and its token estimate, when the original has one
  return copy;
}

type PrefixKeyMemo = { refs: readonly ToolSchema[]; model: string; sorted: boolean; appended: number; system: string[]; key: string };
const prefixKeyMemo = new WeakMap<readonly ToolSchema[], PrefixKeyMemo>();

/**
 * The pipeline's prefix key (model, tool definitions, system text), memoised on the tool list it
 * was computed for: the loop passes the tool pool's same array turn after turn, so the tools are
 * serialised once per list instead of on every turn (a fixed per-turn cost, issue 23 §3). The
 * value is the same as computing it afresh (it is kept in `ContextState.lastPrefixKey`).
 * `listed`: the list as given; `tools`: as sent (sorted from it, per `sorted` and `appended`).
 */
export function prefixKeyOf(listed: readonly ToolSchema[], tools: readonly ToolSchema[], model: string, system: readonly TextBlock[], sorted: boolean, appended: number): string {
  const hit = prefixKeyMemo.get(listed);
  if (
    hit &&
    hit.model === model &&
    hit.sorted === sorted &&
    hit.appended === appended &&
    hit.refs.length === listed.length &&
    hit.refs.every((t, i) => t === listed[i]) &&
    hit.system.length === system.length &&
    hit.system.every((text, i) => text === system[i]!.text)
  ) {
    return hit.key;
  }
  const key = hash53(JSON.stringify([model, tools.map((t) => [t.name, t.description, t.input_schema]), system.map((b) => b.text)])).toString(36);
  prefixKeyMemo.set(listed, { refs: [...listed], model, sorted, appended, system: system.map((b) => b.text), key });
  return key;
}

export function systemBlocks(system: string | TextBlock[] | undefined): TextBlock[] {
  if (system === undefined || system === '') return [];
  return typeof system === 'string' ? [{ type: 'text', text: system }] : system;
}

/** One message's items before chaining: own hashes, tokens, kinds. Memoised per message object. */
type MessageParts = { hashes: number[]; tokens: number[]; isBlock: boolean[]; breakpoint: boolean[] };
const partsMemo = new WeakMap<Message, MessageParts>();
const ROLE_HASH = { user: hash53('msg:user'), assistant: hash53('msg:assistant') };

function messageParts(m: Message): MessageParts {
  const hit = partsMemo.get(m);
  if (hit) return hit;
  const p: MessageParts = { hashes: [ROLE_HASH[m.role]], tokens: [MESSAGE_OVERHEAD_TOKENS], isBlock: [false], breakpoint: [false] };
  const blocks: ContentBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  for (const b of blocks) {
    p.hashes.push(canonicalHash(b));
    p.tokens.push(blockTokens(b));
    p.isBlock.push(true);
    p.breakpoint.push('cache_control' in b && b.cache_control !== undefined);
  }
  partsMemo.set(m, p);
  return p;
}

/**
 * Memo of whole requests: the loop diffs each request against the one before, so every request is
 * linearised once (as "current") and found here the next turn (as "prev"). Message parts are
 * memoised per message object, so a new request costs a walk over numbers, not a re-hash of the
 * history: per-turn work stays linear in the history with a small constant.
 */
const requestMemo = new WeakMap<PrefixRequest, { messages: readonly Message[]; length: number; items: PrefixItem[] }>();

export function linearize(request: PrefixRequest): PrefixItem[] {
  const hit = requestMemo.get(request);
  // A request object reused with another message list (or one pushed onto) is linearised again.
  if (hit && hit.messages === request.messages && hit.length === request.messages.length) return hit.items;
  const items: PrefixItem[] = [];
  let h = hash53(`model:${request.model ?? ''}`);
  let tokens = 0;
  const push = (part: PrefixItem['part'], index: number, itemH: number, t: number, isBlock: boolean, breakpoint: boolean) => {
    h = chain(h, itemH);
    tokens += t;
    items.push({ hash: h, tokens, part, isBlock, breakpoint, index });
  };
  (request.tools ?? []).forEach((t, i) => push('tools', i, canonicalHash(t), toolSchemaTokens(t), true, t.cache_control !== undefined));
  systemBlocks(request.system).forEach((b, i) => push('system', i, canonicalHash(b), blockTokens(b), true, b.cache_control !== undefined));
  request.messages.forEach((m, i) => {
    const p = messageParts(m);
    for (let j = 0; j < p.hashes.length; j++) push('messages', i, p.hashes[j]!, p.tokens[j]!, p.isBlock[j]!, p.breakpoint[j]!);
  });
  requestMemo.set(request, { messages: request.messages, length: request.messages.length, items });
  return items;
}

/** How many leading items two linearised requests share. */
export function sharedItems(a: readonly PrefixItem[], b: readonly PrefixItem[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i]!.hash === b[i]!.hash) i++;
  return i;
}

/** Estimated tokens two requests share from the start (the most a cache could reuse). */
export function commonPrefixTokens(a: PrefixRequest, b: PrefixRequest): number {
  const la = linearize(a);
  const lb = linearize(b);
  const k = sharedItems(la, lb);
  return k === 0 ? 0 : la[k - 1]!.tokens;
}

export function totalTokens(items: readonly PrefixItem[]): number {
  return items.length === 0 ? 0 : items[items.length - 1]!.tokens;
}
