/**
 * Layer 4, context collapse: a read-only projection. The collapse store (`state.collapses`) holds
 * summaries for ranges of exchanges; before each call the model sees the history with each range
 * replaced by its summary, appended as a text block to the user message just before the range (so
 * roles still alternate and no tool_use loses its result). The stored history is never touched:
 * the layer never commits.
 *
 * When the request reaches `collapse.threshold` of the window, every exchange older than the last
 * `keepRecentExchanges` that is not collapsed yet joins a new entry, in one go (one cache break).
 * Once made, an entry projects identically on every call, so the prefix stays stable.
 *
 * Between `economyFrom` and `threshold` it collapses early when that pays for itself: the tokens
 * the new entries remove are read (0.1×) on every later call, the projection after the first
 * changed message is written once (1.25× instead of 0.1×). On a long session this keeps the
 * request well under the line at a lower total cost than waiting for it.
 */
import type { Message } from '../messages.ts';
import type { CompactionChange } from '../trace.ts';
import { summarizeRange } from './collapse-summary.ts';
import { exchangesOf, fingerprint, withAppendedText, type Exchange } from './history-shape.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import type { CollapseEntry } from './state.ts';
import { READ_PRICE, WRITE_PRICE } from './layer-microcompact.ts';
import { messagesTokens } from './tokens.ts';

/** How a collapse summary block starts (the pipeline finds the newest one by it, for the region breakpoint). */
export const collapsedHeader = (from: number, to: number) => `[collapsed messages ${from}–${to}:`;

function summaryBlock(e: CollapseEntry): string {
  return `${collapsedHeader(e.from, e.to)} a summary stands in for them; the full messages are kept outside this request]\n${e.summary}`;
}

/** Entries that still fit the history: aligned on exchanges, anchored, not overlapping, sorted. */
export function validCollapses(messages: readonly Message[], entries: readonly CollapseEntry[]): CollapseEntry[] {
  const out: CollapseEntry[] = [];
  for (const e of [...entries].sort((a, b) => a.from - b.from)) {
    const ok =
      e.from >= 1 &&
      e.to > e.from &&
      e.to < messages.length &&
      messages[e.from]!.role === 'assistant' &&
      messages[e.to]!.role === 'user' &&
      fingerprint(messages[e.from]) === e.anchor &&
      (out.length === 0 || out[out.length - 1]!.to < e.from);
    if (ok) out.push(e);
  }
  return out;
}

export function makeEntry(messages: readonly Message[], from: number, to: number, findings = true): CollapseEntry {
  return {
    from,
    to,
    summary: summarizeRange(messages, from, to, { findings }),
    anchor: fingerprint(messages[from]),
    tokens: messagesTokens(messages.slice(from, to + 1)),
  };
}

/** The history as the model sees it with these (valid, sorted) entries applied. */
export function projectCollapses(messages: readonly Message[], entries: readonly CollapseEntry[]): Message[] {
  if (entries.length === 0) return [...messages];
  const out: Message[] = [];
  let k = 0;
  for (let i = 0; i < messages.length; i++) {
    const e = entries[k];
    if (e && i === e.from) {
      out[out.length - 1] = withAppendedText(out[out.length - 1]!, [summaryBlock(e)]);
      i = e.to;
      k++;
      continue;
    }
    out.push(messages[i]!);
  }
  return out;
}

function isCovered(x: Exchange, entries: readonly CollapseEntry[]): boolean {
  return entries.some((e) => x.from >= e.from && x.to <= e.to);
}

/** Every exchange older than the last `keep` that is not collapsed yet joins an entry (`add`). */
function collapseOlder(messages: readonly Message[], entries: readonly CollapseEntry[], keep: number, add: (from: number, to: number) => void) {
  const exchanges = exchangesOf(messages);
  const older = exchanges.slice(0, Math.max(0, exchanges.length - keep));
  // Contiguous runs of not-yet-collapsed older exchanges, each becoming one entry.
  let run: Exchange[] = [];
  const flush = () => {
    if (run.length > 0) add(run[0]!.from, run[run.length - 1]!.to);
    run = [];
  };
  for (const x of older) {
    if (isCovered(x, entries) || (run.length > 0 && run[run.length - 1]!.to + 1 !== x.from)) flush();
    if (!isCovered(x, entries)) run.push(x);
  }
  flush();
}

/**
 * Whether moving from the `before` entries to `after` pays for itself within `calls` calls; a
 * sentence saying so, or null. The write counted is the new projection from the first message
 * that differs.
 */
function paysBack(messages: readonly Message[], before: readonly CollapseEntry[], after: readonly CollapseEntry[], calls: number): string | null {
  if (after === before) return null;
  const a = projectCollapses(messages, before);
  const b = projectCollapses(messages, after);
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  const saved = messagesTokens(a.slice(k)) - messagesTokens(b.slice(k));
  const rewritten = messagesTokens(b.slice(k));
  if (READ_PRICE * saved * calls < (WRITE_PRICE - READ_PRICE) * rewritten) return null;
  return `saves ${saved} tokens per call for a one-off re-write of ${rewritten}`;
}

export function collapseLayer(input: LayerInput): LayerOutput {
  const { messages, settings, state } = input;
  const c = settings.collapse;
  const before = input.tokensOf(messages);
  if (!c.enabled) {
    return { messages, state, event: layerEvent('collapse', { fired: false, committed: false, tokensBefore: before, tokensAfter: before, reason: 'switched off', changes: [] }) };
  }
  let entries = validCollapses(messages, state.collapses);
  const dropped = state.collapses.length - entries.length;
  const fresh = new Set<CollapseEntry>();
  const add = (from: number, to: number) => {
    const e = makeEntry(messages, from, to, c.findings);
    const merged = validCollapses(messages, [...entries, e]);
    if (merged.includes(e)) {
      entries = merged;
      fresh.add(e);
    }
  };
  for (const r of c.ranges) {
    if (!entries.some((e) => e.from === r.from && e.to === r.to) && r.to < messages.length) add(r.from, r.to);
  }
  const line = Math.floor(c.threshold * settings.windowTokens);
  const current = input.tokensOf(projectCollapses(messages, entries));
  const economyLine = Math.floor(c.economyFrom * settings.windowTokens);
  let early = '';
  if (current < line && current >= economyLine && c.paybackCalls > 0) {
    const before = entries;
    collapseOlder(messages, entries, c.keepRecentExchanges, add);
    const pays = paysBack(messages, before, entries, c.paybackCalls);
    if (pays === null) entries = before;
    else early = `; early: ${pays}`;
    for (const e of [...fresh]) if (!entries.includes(e)) fresh.delete(e);
  } else if (current >= line) {
    collapseOlder(messages, entries, c.keepRecentExchanges, add);
  }
  const projected = projectCollapses(messages, entries);
  const after = input.tokensOf(projected);
  const changes: CompactionChange[] = entries.map((e) => ({ kind: 'range_collapsed', from: e.from, to: e.to, summary: e.summary, isNew: fresh.has(e) }));
  const note = dropped > 0 ? `; ${dropped} stale entr${dropped === 1 ? 'y' : 'ies'} dropped` : '';
  const reason =
    entries.length === 0
      ? `under the collapse line (${current} < ${line} tokens)${note}`
      : `${entries.length} range(s) projected, ${fresh.size} new${fresh.size === 0 ? ' (the store is reused: same projection, cache intact)' : ''}${early}${note}`;
  return {
    messages: projected,
    state: { ...state, collapses: entries },
    event: layerEvent('collapse', { fired: entries.length > 0, committed: false, tokensBefore: before, tokensAfter: after, reason, changes }),
  };
}
