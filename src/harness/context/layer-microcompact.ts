/**
 * Layer 3, microcompact: keep the last N tool results verbatim; older ones become references (the
 * originals go to `state.stored`). It looks only at tool_use ids and sizes, never at content.
 *
 * Cache-aware path (seed 002 §3.4): rewriting an old result mutates the middle of the history and
 * so breaks the prompt cache. The trims are therefore queued (`pendingCacheEdits`) and applied
 * only when the cache is broken anyway:
 * 1. evidence — the last response read < `healthyRatio` (95 %) of the cache the call before read,
 *    a drop the harness did not cause itself (the seed's rule: compare actual with actual);
 * 2. expiry — more than the cache TTL passed since the last call (the silent case the seed warns of);
 * 3. this call already changes the prefix — an earlier layer committed a mid-history change, or
 *    the model, tools or system differ from the last request;
 * 4. pressure — the request is over a later layer's threshold, so collapse or auto-compact would
 *    break the prefix this call anyway; the scalpel goes first and may spare them.
 * Otherwise the queue is dropped and nothing changes: never be the cause of a cache break.
 * Rules 2–4 are ours: they apply the trims in the very call that breaks the cache, when it is free.
 *
 * Rule 4 is not free when it is the only reason: the trim itself is then the break, and everything
 * after the first trimmed block is written to the cache again (1.25×) instead of read (0.1×). It
 * applies only when the tokens saved are at least `pressureMinSavingShare` of the tokens re-written;
 * a late trim of two results under ~65k tokens of later history is left to collapse / auto-compact,
 * which break the cache once and shrink the request far more.
 *
 * With a healthy cache, a trim still applies when it pays for itself within `paybackCalls` calls:
 * the tokens it saves are read (0.1×) on every later call, the tokens after it are written once
 * (1.25× instead of 0.1×). On long sessions that keeps the request small instead of reading tens of
 * thousands of dead tokens per call; on short ones the saving never covers the write, so nothing
 * changes.
 */
import type { ToolResultBlock } from '../messages.ts';
import type { CompactionChange } from '../trace.ts';
import { replaceToolResults, toolNamesById, toolResultSites } from './history-shape.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import { headLines, imagesIn, isReference, referenceText } from './references.ts';
import type { ContextState, StoredResult } from './state.ts';
import { messageTokens, toolResultText } from './tokens.ts';
import { originalLength } from '../util/truncate.ts';

/** Prices relative to uncached input (REFERENCE.md, "Prompt caching"): a 5-minute write and a read. */
export const WRITE_PRICE = 1.25;
export const READ_PRICE = 0.1;

export type CacheSignals = {
  /** Clock time of this call, for the TTL rule. */
  now?: number;
  /** An earlier layer or a model/tools/system change already breaks the prefix this call. */
  prefixChanging: boolean;
  /** The request is at or over a later layer's threshold. */
  pressure: boolean;
};

/** Why the cache counts as broken (so trims are free), or null when it is healthy. */
export function cacheBrokenBecause(state: ContextState, s: LayerInput['settings']['microcompact'], signals: CacheSignals): string | null {
  return brokenBy(state, s, signals)?.why ?? null;
}

type Broken = { why: string; pressureOnly: boolean };

function brokenBy(state: ContextState, s: LayerInput['settings']['microcompact'], signals: CacheSignals): Broken | null {
  const { last, previous } = state.cacheReads;
  if (last !== null && previous !== null && previous > 0 && !state.lastCallBrokePrefix) {
    if (last < previous * s.healthyRatio && previous - last >= s.minDropTokens) {
      return { why: `the last call read ${last} cached tokens, under ${Math.round(s.healthyRatio * 100)} % of the ${previous} before: the cache already broke`, pressureOnly: false };
    }
  }
  if (signals.now !== undefined && state.lastCallAt !== null && signals.now - state.lastCallAt >= s.cacheTtlMs) {
    return { why: `${Math.round((signals.now - state.lastCallAt) / 1000)} s since the last call: the cache expired`, pressureOnly: false };
  }
  if (signals.prefixChanging) return { why: 'this request already changes the cached prefix', pressureOnly: false };
  if (signals.pressure) return { why: 'over a later layer’s threshold: the prefix would break this call anyway', pressureOnly: true };
  return null;
}

export function microcompactLayer(input: LayerInput & { signals: CacheSignals }): LayerOutput {
  const { messages, settings, state } = input;
  const s = settings.microcompact;
  const before = input.tokensOf(messages);
  const none = (reason: string, changes: CompactionChange[] = [], pending: string[] = []): LayerOutput => ({
    messages,
    state: { ...state, pendingCacheEdits: pending },
    event: layerEvent('microcompact', { fired: false, committed: false, tokensBefore: before, tokensAfter: before, reason, changes }),
  });
  if (!s.enabled) return none('switched off');

  const sites = toolResultSites(messages);
  const older = sites.slice(0, Math.max(0, sites.length - s.keepRecent));
  const candidates = older.filter((site) => !isReference(site.block) && toolResultText(site.block).length >= s.minChars);
  if (candidates.length === 0) return none(`nothing to trim: ${sites.length} tool result(s), the last ${s.keepRecent} kept verbatim`);

  const ids = candidates.map((c) => c.block.tool_use_id);
  if (s.cacheAware) {
    const broken = brokenBy(state, s, input.signals);
    if (broken === null && s.paybackCalls > 0) {
      const out = apply(input, candidates, before, '');
      const { saved, rewritten } = trimEconomics(messages, out);
      if (READ_PRICE * saved * s.paybackCalls >= (WRITE_PRICE - READ_PRICE) * rewritten) {
        const calls = Math.ceil(((WRITE_PRICE - READ_PRICE) * rewritten) / Math.max(1, READ_PRICE * saved));
        return { ...out, event: { ...out.event, reason: `applied ${ids.length} trim(s): they save ${saved} tokens on every call and re-write ${rewritten} once, paid back within ${calls} call(s)` } };
      }
    }
    if (broken === null) {
      return none(
        `${ids.length} trim(s) queued and dropped: the prompt cache is healthy, trimming now would break it`,
        [{ kind: 'trims_deferred', toolUseIds: ids }],
        ids,
      );
    }
    const out = apply(input, candidates, before, `applied ${ids.length} trim(s): ${broken.why}`);
    if (broken.pressureOnly) {
      const { saved, rewritten } = trimEconomics(messages, out);
      if (saved < s.pressureMinSavingShare * rewritten) {
        return none(
          `${ids.length} trim(s) queued and dropped: under pressure, but they would save ${saved} tokens and re-write ${rewritten} to the cache; collapse or auto-compact shrink more per break`,
          [{ kind: 'trims_deferred', toolUseIds: ids }],
          ids,
        );
      }
    }
    return out;
  }
  return apply(input, candidates, before, `kept the last ${s.keepRecent} results; ${ids.length} older one(s) became references`);
}

/**
 * What a trim buys and costs: tokens saved, and the tokens from the first changed message on
 * (after the trim) that the cache must write again.
 */
export function trimEconomics(before: readonly LayerInput['messages'][number][], out: LayerOutput): { saved: number; rewritten: number } {
  const from = out.firstChanged ?? before.length;
  let rewritten = 0;
  let was = 0;
  for (let i = from; i < out.messages.length; i++) rewritten += messageTokens(out.messages[i]!);
  for (let i = from; i < before.length; i++) was += messageTokens(before[i]!);
  return { saved: was - rewritten, rewritten };
}

function apply(input: LayerInput, candidates: ReturnType<typeof toolResultSites>, before: number, reason: string): LayerOutput {
  const { messages, state } = input;
  const names = toolNamesById(messages);
  const stored: Record<string, StoredResult> = { ...state.stored };
  const replacements = new Map<string, ToolResultBlock>();
  const changes: CompactionChange[] = [];
  let firstChanged = Infinity;
  for (const { block, messageIndex } of candidates) {
    const id = block.tool_use_id;
    const text = toolResultText(block);
    const toolName = names.get(id);
    stored[id] = { toolUseId: id, ...(toolName ? { toolName } : {}), content: text, ...(block.is_error ? { isError: true } : {}), by: 'microcompact' };
    replacements.set(id, {
      type: 'tool_result',
      tool_use_id: id,
      content: referenceText({ toolUseId: id, chars: text.length, originalChars: originalLength(text), images: imagesIn(block), preview: headLines(text, 1, 120), why: 'an older result, cleared by microcompact' }),
      ...(block.is_error ? { is_error: true } : {}),
    });
    changes.push({ kind: 'tool_result_ref', toolUseId: id, ...(toolName ? { toolName } : {}), messageIndex, chars: text.length, preview: headLines(text, 3, 240) });
    firstChanged = Math.min(firstChanged, messageIndex);
  }
  const next = replaceToolResults(messages, replacements);
  return {
    messages: next,
    state: { ...state, stored, pendingCacheEdits: [] },
    firstChanged,
    event: layerEvent('microcompact', {
      fired: true,
      committed: true,
      tokensBefore: before,
      tokensAfter: input.tokensOf(next),
      reason,
      changes,
    }),
  };
}
