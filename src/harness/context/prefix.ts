/**
 * A request seen as the API's cache sees it: one flat sequence, tools → system → messages, each
 * item carrying the hash of everything up to and including it and the tokens so far. Two requests
 * share a cached prefix exactly as far as these hashes agree. `cache_control` markers are left
 * out of the hashes: moving a breakpoint does not change the content.
 */
import type { ContentBlock, Message, TextBlock, ToolSchema } from '../messages.ts';
import { chain, hash53 } from './hash.ts';
import { blockTokens, MESSAGE_OVERHEAD_TOKENS, toolSchemaTokens } from './tokens.ts';

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

export function systemBlocks(system: string | TextBlock[] | undefined): TextBlock[] {
  if (system === undefined || system === '') return [];
  return typeof system === 'string' ? [{ type: 'text', text: system }] : system;
}

export function linearize(request: PrefixRequest): PrefixItem[] {
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
  const roleHash = { user: hash53('msg:user'), assistant: hash53('msg:assistant') };
  request.messages.forEach((m, i) => {
    push('messages', i, roleHash[m.role], MESSAGE_OVERHEAD_TOKENS, false, false);
    if (typeof m.content === 'string') {
      push('messages', i, canonicalHash({ type: 'text', text: m.content }), blockTokens({ type: 'text', text: m.content }), true, false);
    } else {
      for (const b of m.content) push('messages', i, canonicalHash(b), blockTokens(b), true, 'cache_control' in b && b.cache_control !== undefined);
    }
  });
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
