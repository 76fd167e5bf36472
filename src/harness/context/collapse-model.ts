/**
 * Model-written collapse summaries (`collapse.summarizer: 'model'`). The collapse layer decides
 * which ranges to collapse and gives each new one the deterministic summary; when the run has a
 * real model client (a live page run, a headless run with a key) {@link writeCollapseSummaries}
 * then asks it, in a separate no-tools request per new range, for a written summary that replaces
 * the deterministic one in the collapse store. Scripted replays pass no summariser, so every lesson
 * projects the same deterministic summaries as before.
 *
 * The deterministic summary stays whenever the call fails, is aborted, or its reply is empty or
 * oversized; the `compaction.layer` event's `summaryCalls` says which and why, and carries each
 * call's usage (the cost ledger prices it as its own `collapse_summary` line). A summary is written
 * once, when its range is collapsed; later calls re-project it unchanged (the cached prefix holds).
 */
import type { Message, Usage } from '../messages.ts';
import type { ModelClient } from '../ports.ts';
import type { CollapseSummaryCall, SummaryFitNote } from '../trace.ts';
import { foldCallUsage } from './call-usage.ts';
import { collapseRequestOf, keepFindings, renderCollapseRange } from './collapse-prompt.ts';
import { callLabel } from './collapse-summary.ts';
import { findingsOfRange } from './findings.ts';
import { projectCollapses } from './layer-collapse.ts';
import type { LayerOutput } from './layer.ts';
import type { CollapseEntry } from './state.ts';
import { fitNote, limitAfter, planSummaryRequest, type SummaryLimit, type SummaryRequestBuild } from './summary-fit.ts';
import { estimateTextTokens } from './tokens.ts';

export type CollapseSummaryResult = ({ ok: true; summary: string } | { ok: false; error: string }) & { model: string; usage: Usage | null; fit?: SummaryFitNote };

/**
 * Writes the summary of `range` (the collapsed messages), keeping `findings`. Never throws. With a
 * `limit`, the request is made to fit it or not sent (`summary-fit.ts`; `fit` says which).
 */
export type CollapseSummarize = (range: Message[], findings: string[], signal: AbortSignal, limit?: SummaryLimit) => Promise<CollapseSummaryResult>;

/** Output tokens a collapse summary may take: a reply cut at this limit is oversized. */
export const COLLAPSE_SUMMARY_MAX_TOKENS = 2_000;
/** A written summary larger than this share of the range it stands for saves too little: oversized. */
export const COLLAPSE_SUMMARY_MAX_SHARE = 0.5;

/** A collapse summary call through a model client: no tools, the prompt of `collapse-prompt.ts`. */
export function modelCollapseSummarizer(client: ModelClient, opts: { model: string; maxTokens?: number }): CollapseSummarize {
  return async (range, findings, signal, limit) => {
    const model = opts.model;
    let usage: Usage | null = null;
    const build: SummaryRequestBuild = (maxChars) => {
      const t = renderCollapseRange(range, maxChars);
      return { request: collapseRequestOf(t.text, findings), chars: t.text.length, leftOut: t.leftOut };
    };
    // Sized before it is sent (summary-fit.ts): cut to fit the window and the budget left, or not sent.
    const plan = planSummaryRequest({ build, model, maxTokens: opts.maxTokens ?? COLLAPSE_SUMMARY_MAX_TOKENS, limit });
    const fit: SummaryFitNote | undefined = plan.fit;
    const fail = (error: string): CollapseSummaryResult => ({ ok: false, error, model, usage, ...(fit ? { fit } : {}) });
    if (signal.aborted) return fail('aborted before the summary call started');
    if (!plan.ok) return fail(plan.reason);
    const texts = new Map<number, string>();
    let stopped = false;
    let cut = false;
    const request = { model, max_tokens: plan.maxTokens, ...plan.request };
    for await (const ev of client.stream(request, signal)) {
      if (ev.type === 'error') return fail(ev.error.kind === 'aborted' ? 'the summary call was aborted' : `the summary call failed: ${ev.error.message}`);
      usage = foldCallUsage(usage, ev);
      if (ev.type === 'message_delta' && ev.delta.stop_reason === 'max_tokens') cut = true;
      if (ev.type === 'content_block_start' && ev.content_block.type === 'text') texts.set(ev.index, ev.content_block.text);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') texts.set(ev.index, (texts.get(ev.index) ?? '') + ev.delta.text);
      if (ev.type === 'message_stop') stopped = true;
    }
    if (!stopped) return fail('the summary call ended before the reply was complete');
    if (cut) return fail(`oversized: the reply reached max_tokens (${request.max_tokens})`);
    const summary = [...texts.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t).join('').trim();
    if (summary === '') return fail('the model returned an empty summary');
    return { ok: true, summary, model, usage, ...(fit ? { fit } : {}) };
  };
}

/**
 * After the collapse layer (`out`): each range it collapsed in this call gets a written summary
 * (one call per range, in order). Returns the layer output with the summaries swapped in, the
 * projection and the event updated; with no new range it returns `out` unchanged and makes no call.
 */
export async function writeCollapseSummaries(args: {
  messages: Message[];
  out: LayerOutput;
  summarize: CollapseSummarize;
  findings: boolean;
  signal: AbortSignal;
  /** What each summary request must fit (the window; the budget left, less this step's earlier calls). */
  limit?: SummaryLimit;
  tokensOf: (messages: readonly Message[]) => number;
}): Promise<LayerOutput> {
  const { messages, out } = args;
  const fresh = new Set(out.event.changes.flatMap((c) => (c.kind === 'range_collapsed' && c.isNew ? [`${c.from}:${c.to}`] : [])));
  if (fresh.size === 0) return out;
  const calls: CollapseSummaryCall[] = [];
  const entries: CollapseEntry[] = [];
  for (const e of out.state.collapses) {
    if (!fresh.has(`${e.from}:${e.to}`)) {
      entries.push(e);
      continue;
    }
    const findings = args.findings ? findingsOfRange(messages, e.from, e.to, callLabel) : [];
    const r = await args.summarize(messages.slice(e.from, e.to + 1), findings, args.signal, limitAfter(args.limit, calls));
    const base = { from: e.from, to: e.to, model: r.model, usage: r.usage, ...(r.fit ? { fit: r.fit } : {}) };
    if (!r.ok) {
      calls.push({ ...base, fallback: r.error });
      entries.push(e);
      continue;
    }
    const kept = keepFindings(r.summary, findings);
    const tokens = estimateTextTokens(kept.summary);
    if (tokens > COLLAPSE_SUMMARY_MAX_SHARE * e.tokens) {
      calls.push({ ...base, fallback: `oversized: ${tokens} tokens for a range of ${e.tokens}` });
      entries.push(e);
      continue;
    }
    calls.push(base);
    entries.push({ ...e, summary: kept.summary });
  }
  const projected = projectCollapses(messages, entries);
  const written = calls.filter((c) => !c.fallback).length;
  const failed = calls.filter((c) => c.fallback).map((c) => c.fallback);
  const fits = calls.filter((c) => c.fit?.sent).map((c) => fitNote(c.fit));
  const note =
    (written > 0 ? `; ${written} summar${written === 1 ? 'y' : 'ies'} written by ${calls[0]!.model}` : '') +
    (fits.length > 0 ? `; ${fits.join('; ')}` : '') +
    (failed.length > 0 ? `; the deterministic summary stands in where the model's did not come (${failed.join('; ')})` : '');
  const byRange = new Map(entries.map((e) => [`${e.from}:${e.to}`, e.summary]));
  return {
    messages: projected,
    state: { ...out.state, collapses: entries },
    event: {
      ...out.event,
      tokensAfter: args.tokensOf(projected),
      reason: `${out.event.reason}${note}`,
      changes: out.event.changes.map((c) => (c.kind === 'range_collapsed' ? { ...c, summary: byRange.get(`${c.from}:${c.to}`) ?? c.summary } : c)),
      summaryCalls: calls,
    },
  };
}
