/**
 * Prompt caching: where the `cache_control` breakpoints go, what a call's cache numbers mean, and
 * what broke the prefix when it broke.
 *
 * Placement (at most 4, the API's limit), chosen so that appending never breaks the prefix:
 * 1. the last tool — tools change rarely, and come first in the prefix;
 * 2. the last system block;
 * 3. the last block of the last message — the whole conversation so far is written to the cache;
 * 4. (optional) the last block of the previous turn's end (the user message before the last
 *    assistant message) — the point the previous call wrote, so a read finds it even when the
 *    newest turn added more than the API's 20-block look-back.
 * 5. (optional) an anchor: the last block before the first block a layer would change next (the
 *    oldest tool result microcompact could still trim). It stays put between rewrites, so its
 *    entry is in the cache when a rewrite comes, and the unchanged prefix before the change is
 *    read instead of written again. With a system block it takes the tools slot: the system
 *    breakpoint's entry covers the tools, which come first.
 * Any marker already in the history is removed first, so there are never more than four.
 */
import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolSchema, Usage } from '../messages.ts';
import type { CacheBreak } from '../trace.ts';
import { messagePreview } from './history-shape.ts';
import { hashesLike, linearize, sharedItems, systemBlocks, type PrefixRequest } from './prefix.ts';
import { toolResultText } from './tokens.ts';

export const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

export type RequestParts = { system: TextBlock[]; tools: ToolSchema[]; messages: Message[] };

function stripMarker<T extends { cache_control?: unknown }>(x: T): T {
  if (x.cache_control === undefined) return x;
  const { cache_control: _cc, ...rest } = x;
  return hashesLike(rest as T, x as T);
}

/** Blocks that may carry `cache_control` (not thinking, not empty text). */
function cacheable(b: ContentBlock): boolean {
  if (b.type === 'thinking' || b.type === 'redacted_thinking') return false;
  return !(b.type === 'text' && b.text === '');
}

function markLastBlock(m: Message): Message | null {
  const blocks: ContentBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (!cacheable(b)) continue;
    const content = [...blocks];
    content[i] = hashesLike({ ...b, cache_control: EPHEMERAL } as ContentBlock, b);
    return { role: m.role, content };
  }
  return null;
}

function hasMarker(m: Message): boolean {
  return typeof m.content !== 'string' && m.content.some((b) => 'cache_control' in b && b.cache_control !== undefined);
}

/** The parts with breakpoints placed; the inputs are not modified. */
export function placeBreakpoints(parts: RequestParts, opts: { previousTurn?: boolean; anchor?: number } = {}): RequestParts {
  const tools = parts.tools.map(stripMarker);
  const system = parts.system.map(stripMarker);
  // String content becomes one text block in every request, so a message reads the same whether
  // or not it carries a marker this time.
  const messages = parts.messages.map((m): Message => {
    if (typeof m.content === 'string') return { role: m.role, content: [{ type: 'text', text: m.content }] };
    return hasMarker(m) ? { role: m.role, content: m.content.map((b) => stripMarker(b as ContentBlock & { cache_control?: unknown })) } : m;
  });
  const ends = [messages.length - 1];
  // The previous call's last message: the user message before the newest assistant reply.
  if ((opts.previousTurn ?? true) && messages.length >= 3 && messages[messages.length - 2]!.role === 'assistant') ends.push(messages.length - 3);
  const anchor = opts.anchor;
  const useAnchor = anchor !== undefined && anchor >= 0 && anchor < Math.min(...ends) && markLastBlock(messages[anchor]!) !== null;
  if (useAnchor) ends.push(anchor);
  // The marked copies hash like their originals (prefix.ts `hashesLike`): no re-serialising per turn.
  if (tools.length > 0 && !(useAnchor && system.length > 0)) tools[tools.length - 1] = hashesLike({ ...tools[tools.length - 1]!, cache_control: EPHEMERAL }, tools[tools.length - 1]!);
  if (system.length > 0) system[system.length - 1] = hashesLike({ ...system[system.length - 1]!, cache_control: EPHEMERAL }, system[system.length - 1]!);
  for (const i of ends) {
    const m = messages[i];
    if (!m) continue;
    const marked = markLastBlock(m);
    if (marked) messages[i] = marked;
  }
  return { system, tools, messages };
}

/**
 * The anchor for {@link placeBreakpoints}: the message before the first tool result a trim could
 * still change (not a reference yet, at least `minChars` long), or undefined when there is none.
 */
export function anchorBeforeTrimmable(messages: readonly Message[], minChars: number, isRef: (b: ToolResultBlock) => boolean): number | undefined {
  for (let i = 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_result' && !isRef(b) && toolResultText(b).length >= minChars) return i - 1;
    }
  }
  return undefined;
}

/** Counts the breakpoints of a request (for checks and the UI). */
export function countBreakpoints(req: PrefixRequest): number {
  return linearize(req).filter((i) => i.breakpoint).length;
}

export type CacheStats = {
  read: number;
  creation: number;
  uncached: number;
  total: number;
  /** read ÷ total input tokens. */
  hitRate: number;
};

/** The cache numbers of one call's usage. */
export function cacheStats(usage: Pick<Usage, 'input_tokens'> & Partial<Usage>): CacheStats {
  const read = usage.cache_read_input_tokens ?? 0;
  const creation = usage.cache_creation_input_tokens ?? 0;
  const uncached = usage.input_tokens;
  const total = read + creation + uncached;
  return { read, creation, uncached, total, hitRate: total === 0 ? 0 : read / total };
}

/** Hit rate over several calls: all reads ÷ all input. */
export function overallHitRate(stats: readonly CacheStats[]): number {
  const total = stats.reduce((n, s) => n + s.total, 0);
  return total === 0 ? 0 : stats.reduce((n, s) => n + s.read, 0) / total;
}

function clip(s: string, n = 160): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** Where two strings first differ, with a little context on each side. */
function around(a: string, b: string): { before: string; after: string } {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 30);
  return { before: clip(a.slice(from, i + 90)), after: clip(b.slice(from, i + 90)) };
}

/**
 * What in `request` broke the prefix `prev` had cached: the model, the tool list, the system
 * text, or the first message whose content changed (with a short before/after). `null` when
 * `request` only appends to `prev` (blocks added to the last message count as appending).
 */
export function cacheBreakDiff(prev: PrefixRequest, request: PrefixRequest): CacheBreak | null {
  const a = linearize(prev);
  const b = linearize(request);
  const k = sharedItems(a, b);
  if (k === a.length) return null;
  const sharedPrefixTokens = k === 0 ? 0 : a[k - 1]!.tokens;
  if ((prev.model ?? '') !== (request.model ?? '')) {
    return { part: 'model', detail: `the model changed from ${prev.model} to ${request.model}`, before: prev.model ?? '', after: request.model ?? '', sharedPrefixTokens: 0 };
  }
  const first = a[k]!;
  const before = (prev.tools ?? []).map((t) => t.name);
  const after = (request.tools ?? []).map((t) => t.name);
  // Tools appended after an unchanged list (a deferred tool loaded): the old tools are still read, the break is where the list grew.
  const appended = after.length > before.length && before.every((n, i) => after[i] === n) && first.part !== 'messages';
  if (first.part === 'tools' || appended) {
    const sameNames = before.join(',') === after.join(',');
    const name = before[first.index] ?? '?';
    return {
      part: 'tools',
      detail: appended
        ? `tools appended at the end of the list (${after.slice(before.length).join(', ')}): the earlier tools still read from the cache`
        : sameNames ? `the definition of tool "${name}" changed` : `the tool list changed (${before.join(', ')} → ${after.join(', ')})`,
      before: before.join(', '),
      after: after.join(', '),
      sharedPrefixTokens,
    };
  }
  if (first.part === 'system') {
    const s = around(systemBlocks(prev.system).map((x) => x.text).join('\n'), systemBlocks(request.system).map((x) => x.text).join('\n'));
    return { part: 'system', detail: `the system prompt changed (block ${first.index})`, ...s, sharedPrefixTokens };
  }
  const index = first.index;
  const pm = prev.messages[index];
  const nm = request.messages[index];
  const detail = nm === undefined ? `messages from ${index} on were removed` : `message ${index} (${pm?.role}) changed`;
  return { part: 'messages', index, detail, before: messagePreview(pm, 160), after: nm ? messagePreview(nm, 160) : '(removed)', sharedPrefixTokens };
}
