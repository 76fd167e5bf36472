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
 */
import type { ToolResultBlock } from '../messages.ts';
import type { CompactionChange } from '../trace.ts';
import { replaceToolResults, toolNamesById, toolResultSites } from './history-shape.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import { headLines, isReference, referenceText } from './references.ts';
import type { ContextState, StoredResult } from './state.ts';
import { toolResultText } from './tokens.ts';

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
  const { last, previous } = state.cacheReads;
  if (last !== null && previous !== null && previous > 0 && !state.lastCallBrokePrefix) {
    if (last < previous * s.healthyRatio && previous - last >= s.minDropTokens) {
      return `the last call read ${last} cached tokens, under ${Math.round(s.healthyRatio * 100)} % of the ${previous} before: the cache already broke`;
    }
  }
  if (signals.now !== undefined && state.lastCallAt !== null && signals.now - state.lastCallAt >= s.cacheTtlMs) {
    return `${Math.round((signals.now - state.lastCallAt) / 1000)} s since the last call: the cache expired`;
  }
  if (signals.prefixChanging) return 'this request already changes the cached prefix';
  if (signals.pressure) return 'over a later layer’s threshold: the prefix would break this call anyway';
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
    const broken = cacheBrokenBecause(state, s, input.signals);
    if (broken === null) {
      return none(
        `${ids.length} trim(s) queued and dropped: the prompt cache is healthy, trimming now would break it`,
        [{ kind: 'trims_deferred', toolUseIds: ids }],
        ids,
      );
    }
    return apply(input, candidates, before, `applied ${ids.length} trim(s): ${broken}`);
  }
  return apply(input, candidates, before, `kept the last ${s.keepRecent} results; ${ids.length} older one(s) became references`);
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
      content: referenceText({ toolUseId: id, chars: text.length, preview: headLines(text, 1, 120), why: 'an older result, cleared by microcompact' }),
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
