/**
 * Summarisers for auto-compact. `prepareContext` takes any {@link Summarize}; the loop usually
 * passes {@link modelSummarizer} over its own model client (it may wrap it to fire PreCompact
 * hooks first). {@link deterministicSummarizer} needs no model (tests, benchmarks, offline demos).
 */
import type { Message, TextBlock, Usage } from '../messages.ts';
import type { ModelClient } from '../ports.ts';
import type { SummaryFitNote, TraceEventBody } from '../trace.ts';
import { foldCallUsage } from './call-usage.ts';
import { summarizeRange } from './collapse-summary.ts';
import { compactRequestOf, COMPACT_SECTIONS, renderTranscriptCut } from './compact-prompt.ts';
import { planSummaryRequest, type SummaryLimit, type SummaryRequestBuild } from './summary-fit.ts';

/**
 * The model call behind a summary, when there was one: which model and what the API reported
 * (`null` when it reported nothing). Auto-compact puts it in its `compaction.layer` event's
 * `summaryCalls`, and the cost ledger prices it as a `compact_summary` line — a failed call costs
 * money too. A model-free summariser leaves it out.
 */
export type SummaryCallInfo = { model: string; usage: Usage | null };

export type SummaryResult = ({ ok: true; summary: string } | { ok: false; error: string }) & {
  call?: SummaryCallInfo;
  /** Set when the request had to be made smaller to fit, or was not sent (`sent: false`): see `summary-fit.ts`. */
  fit?: SummaryFitNote;
};

export type SummarizeInfo = {
  trigger: 'auto' | 'reactive';
  /** What the summary request must fit (the model's window, the run's budget left); a model summariser honours it. */
  limit?: SummaryLimit;
};

/**
 * Writes the summary of `messages` (the history minus the exchange kept verbatim). It may be a
 * plain async function or an async generator that yields trace events as it goes (hook runs, the
 * summary call's deltas); `prepareContext` passes those events through.
 */
export type Summarize = (
  messages: Message[],
  signal: AbortSignal,
  info: SummarizeInfo,
) => Promise<SummaryResult> | AsyncGenerator<TraceEventBody, SummaryResult>;

/** A summary call through a model client: no tools, the structured prompt of `compact-prompt.ts`. */
export function modelSummarizer(client: ModelClient, opts: { model: string; maxTokens?: number; customInstructions?: string }): Summarize {
  return async (messages, signal, info) => {
    const build: SummaryRequestBuild = (maxChars) => {
      const t = renderTranscriptCut(messages, maxChars === undefined ? {} : { maxChars });
      return { request: compactRequestOf(t.text, opts.customInstructions), chars: t.text.length, leftOut: t.leftOut };
    };
    const plan = planSummaryRequest({ build, model: opts.model, maxTokens: opts.maxTokens ?? 8_000, limit: info?.limit });
    const fit = plan.fit ? { fit: plan.fit } : {};
    // Not sent: no call, no cost; the layer lets the deterministic summary stand in.
    if (!plan.ok) return { ok: false, error: plan.reason, call: { model: opts.model, usage: null }, ...fit };
    const texts = new Map<number, string>();
    let stopped = false;
    let usage: Usage | null = null;
    const call = (): SummaryCallInfo => ({ model: opts.model, usage });
    for await (const ev of client.stream({ model: opts.model, max_tokens: plan.maxTokens, ...plan.request }, signal)) {
      if (ev.type === 'error') return { ok: false, error: `the summary call failed: ${ev.error.message}`, call: call(), ...fit };
      usage = foldCallUsage(usage, ev);
      if (ev.type === 'content_block_start' && ev.content_block.type === 'text') texts.set(ev.index, ev.content_block.text);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') texts.set(ev.index, (texts.get(ev.index) ?? '') + ev.delta.text);
      if (ev.type === 'message_stop') stopped = true;
    }
    const summary = [...texts.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t).join('');
    if (!stopped) return { ok: false, error: 'the summary call ended before the reply was complete', call: call(), ...fit };
    if (summary.trim() === '') return { ok: false, error: 'the model returned an empty summary', call: call(), ...fit };
    return { ok: true, summary, call: call(), ...fit };
  };
}

/** A model-free summary in the same sections, built from the tool calls and the user's words. */
export const deterministicSummarizer = async (messages: Message[], _signal?: AbortSignal, _info?: SummarizeInfo): Promise<SummaryResult> => {
  const first = messages[0];
  const intent = first ? blocksText(first) : '';
  const body = messages.length > 2 ? summarizeRange(messages, 1, messages.length - 1) : '(nothing else)';
  const [primary, , , , , , , current] = COMPACT_SECTIONS;
  return {
    ok: true,
    summary: `## ${primary}\n${intent.slice(0, 2_000)}\n\n## ${current}\n${body}`,
  };
};

function blocksText(m: Message): string {
  return typeof m.content === 'string' ? m.content : m.content.filter((b): b is TextBlock => b.type === 'text').map((b) => b.text).join('\n');
}
