/**
 * Layer 1, budget reduction (always on unless switched off): a tool result over its cap, or the
 * largest results of a user message whose results together exceed the per-message budget, become
 * a reference with a preview; the original goes to `state.stored`, readable with
 * `read_tool_result`. It usually acts on the newest message (just appended), so it costs no cache.
 */
import type { ToolResultBlock } from '../messages.ts';
import type { CompactionChange } from '../trace.ts';
import { toolNamesById, toolResultSites, replaceToolResults, type ResultSite } from './history-shape.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import { headLines, imagesIn, isReference, referenceText } from './references.ts';
import type { ContextSettings } from './settings.ts';
import type { StoredResult } from './state.ts';
import { toolResultText } from './tokens.ts';
import { originalLength } from '../util/truncate.ts';

/**
 * The cap for one tool's results: a `perTool` setting wins (0 exempts); otherwise the tool's own
 * `maxResultChars` (the tool already cut its output to that with an honest note, so a second cut
 * here would only hide the note); a tool declaring a non-finite cap is exempt; `defaultMaxChars`
 * covers tools that declare nothing.
 */
export function capFor(name: string | undefined, settings: ContextSettings, toolCaps: Readonly<Record<string, number>>): number {
  const b = settings.budget;
  if (name !== undefined) {
    const own = b.perTool[name];
    if (own !== undefined) return own === 0 ? Infinity : own;
    const declared = toolCaps[name];
    if (declared !== undefined) return Number.isFinite(declared) ? declared : Infinity;
  }
  return b.defaultMaxChars;
}

export function budgetLayer(input: LayerInput & { toolCaps: Readonly<Record<string, number>> }): LayerOutput {
  const { messages, settings, state } = input;
  const before = input.tokensOf(messages);
  if (!settings.budget.enabled) {
    return { messages, state, event: layerEvent('budget', { fired: false, committed: false, tokensBefore: before, tokensAfter: before, reason: 'switched off', changes: [] }) };
  }
  const names = toolNamesById(messages);
  const chosen: { site: ResultSite; text: string; why: string }[] = [];
  const byMessage = new Map<number, { site: ResultSite; text: string }[]>();
  for (const site of toolResultSites(messages)) {
    if (isReference(site.block)) continue;
    const text = toolResultText(site.block);
    const cap = capFor(names.get(site.block.tool_use_id), settings, input.toolCaps);
    if (text.length > cap) {
      chosen.push({ site, text, why: `over the ${cap.toLocaleString('en-US')}-char cap` });
      continue;
    }
    if (cap === Infinity) continue; // exempt tools do not count against the message budget either
    const list = byMessage.get(site.messageIndex) ?? [];
    list.push({ site, text });
    byMessage.set(site.messageIndex, list);
  }
  // Per-message budget: reference the largest remaining results until the message fits.
  for (const list of byMessage.values()) {
    let total = list.reduce((n, r) => n + r.text.length, 0);
    const limit = settings.budget.perMessageChars;
    for (const r of [...list].sort((a, b) => b.text.length - a.text.length)) {
      if (total <= limit) break;
      chosen.push({ ...r, why: `its message's results exceed ${limit.toLocaleString('en-US')} chars together` });
      total -= r.text.length;
    }
  }
  if (chosen.length === 0) {
    return { messages, state, event: layerEvent('budget', { fired: false, committed: false, tokensBefore: before, tokensAfter: before, reason: 'every tool result is within its cap', changes: [] }) };
  }

  const replacements = new Map<string, ToolResultBlock>();
  const stored: Record<string, StoredResult> = { ...state.stored };
  const changes: CompactionChange[] = [];
  let firstChanged = Infinity;
  for (const { site, text, why } of chosen) {
    const id = site.block.tool_use_id;
    const preview = headLines(text, settings.budget.previewLines, 600);
    const toolName = names.get(id);
    stored[id] = { toolUseId: id, ...(toolName ? { toolName } : {}), content: text, ...(site.block.is_error ? { isError: true } : {}), by: 'budget' };
    replacements.set(id, {
      type: 'tool_result',
      tool_use_id: id,
      content: referenceText({ toolUseId: id, chars: text.length, originalChars: originalLength(text), images: imagesIn(site.block), preview, why }),
      ...(site.block.is_error ? { is_error: true } : {}),
    });
    changes.push({ kind: 'tool_result_ref', toolUseId: id, ...(toolName ? { toolName } : {}), messageIndex: site.messageIndex, chars: text.length, preview: headLines(text, 3, 240) });
    firstChanged = Math.min(firstChanged, site.messageIndex);
  }
  const next = replaceToolResults(messages, replacements);
  const after = input.tokensOf(next);
  return {
    messages: next,
    state: { ...state, stored },
    firstChanged,
    event: layerEvent('budget', {
      fired: true,
      committed: true,
      tokensBefore: before,
      tokensAfter: after,
      reason: `${chosen.length} tool result(s) stored as references`,
      changes,
    }),
  };
}
