/**
 * Layer 5, auto-compact: when the projected request reaches `autoCompactThreshold` of the window
 * (or the API said "prompt is too long": `trigger: 'reactive'`), a summariser writes a structured
 * summary and the stored history becomes [the summary as a user message, the last exchange
 * verbatim]. The collapse store and queued trims no longer apply and are cleared; stored tool
 * results are kept (`read_tool_result` still works). After `maxFailures` failed summaries in a row
 * the automatic path stops trying (a circuit breaker); a reactive compact always tries.
 *
 * When a model wrote (or failed to write) the summary, the event's `summaryCalls` carries that call's
 * model and usage — the same shape the collapse layer uses — so the cost ledger prices it as a
 * `compact_summary` line and the run's budget counts it (`/compact` comes through here too).
 */
import type { Message } from '../messages.ts';
import type { SummaryCall, TraceEventBody } from '../trace.ts';
import { summaryMessageText } from './compact-prompt.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import { deterministicSummarizer, type Summarize, type SummaryResult } from './summarizer.ts';
import { fitNote, type SummaryLimit } from './summary-fit.ts';

export type AutoCompactResult = LayerOutput & {
  /** Set when the history was rewritten: what the loop needs for PostCompact hooks and memory. */
  compaction?: { trigger: 'auto' | 'reactive'; summary: string; messagesBefore: number; messagesAfter: number; tokensBefore: number; tokensAfter: number };
  /** Set when the summariser failed. */
  error?: string;
};

function isGenerator(x: unknown): x is AsyncGenerator<TraceEventBody, SummaryResult> {
  return typeof x === 'object' && x !== null && Symbol.asyncIterator in x;
}

export async function* autoCompactLayer(
  input: LayerInput & {
    /** The request as projected by the earlier layers (what would be sent). */
    projected: Message[];
    trigger: 'auto' | 'reactive';
    summarize?: Summarize;
    signal: AbortSignal;
    /** What the summary request must fit (`summary-fit.ts`); a model summariser cuts or skips its request. */
    limit?: SummaryLimit;
  },
): AsyncGenerator<TraceEventBody, AutoCompactResult> {
  const { messages, settings, state, trigger } = input;
  const tokens = input.tokensOf(input.projected);
  const line = Math.floor(settings.autoCompactThreshold * settings.windowTokens);
  const none = (reason: string, error?: string): AutoCompactResult => ({
    messages,
    state,
    ...(error ? { error } : {}),
    event: layerEvent('auto_compact', { fired: false, committed: false, tokensBefore: tokens, tokensAfter: tokens, reason, changes: [] }),
  });
  if (trigger === 'auto') {
    if (!settings.autoCompact.enabled) return none('switched off');
    if (tokens < line) return none(`${tokens} tokens, under the line at ${line} (${Math.round(settings.autoCompactThreshold * 100)} % of ${settings.windowTokens})`);
    if (state.autoCompactFailures >= settings.autoCompact.maxFailures) {
      return none(`over the line, but the last ${state.autoCompactFailures} summaries failed: not trying again until one succeeds`);
    }
  }
  if (messages.length < 3 || messages[messages.length - 2]?.role !== 'assistant') return none('nothing to summarise: the history is a single exchange');
  if (!input.summarize) return none('over the line, but no summariser was given');

  const head = messages.slice(0, -2);
  const tail = messages.slice(-2);
  const call = input.summarize(head, input.signal, { trigger, ...(input.limit ? { limit: input.limit } : {}) });
  let result: SummaryResult;
  if (isGenerator(call)) {
    let step = await call.next();
    while (!step.done) {
      yield step.value;
      step = await call.next();
    }
    result = step.value;
  } else {
    result = await call;
  }
  // The call that wrote it: messages 0…head.length-1 of the stored history were summarised.
  const fitSeen = result.fit;
  const fit = fitSeen ? { fit: fitSeen } : {};
  const summaryCalls: SummaryCall[] = result.call ? [{ from: 0, to: head.length - 1, model: result.call.model, usage: result.call.usage, ...(result.ok ? {} : { fallback: result.error }), ...fit }] : [];
  const withCalls = summaryCalls.length > 0 ? { summaryCalls } : {};
  // A request that did not fit was never sent: compacting still has to happen, so the
  // deterministic summary stands in (the event says so) rather than counting as a failure.
  const notSent = !result.ok && result.fit?.sent === false;
  if (notSent) result = await deterministicSummarizer(head, input.signal);
  if (!result.ok) {
    const failed = { ...state, autoCompactFailures: state.autoCompactFailures + 1 };
    const out = none(`the summary failed: ${result.error}`, result.error);
    return { ...out, event: { ...out.event, ...withCalls }, state: failed };
  }
  const next: Message[] = [{ role: 'user', content: [{ type: 'text', text: summaryMessageText(result.summary, head.length) }] }, ...tail];
  const after = input.tokensOf(next);
  const compaction = { trigger, summary: result.summary, messagesBefore: messages.length, messagesAfter: next.length, tokensBefore: tokens, tokensAfter: after };
  return {
    messages: next,
    firstChanged: 0,
    compaction,
    state: {
      ...state,
      collapses: [],
      pendingCacheEdits: [],
      autoCompactFailures: 0,
      compactions: [
        ...state.compactions,
        { call: state.calls, trigger, messagesBefore: messages.length, messagesAfter: next.length, tokensBefore: tokens, tokensAfter: after },
      ],
    },
    event: layerEvent('auto_compact', {
      fired: true,
      committed: true,
      tokensBefore: tokens,
      tokensAfter: after,
      reason:
        (trigger === 'reactive' ? 'the API said the prompt is too long: compacted once' : `${tokens} tokens reached the line at ${line}`) +
        (fitSeen ? `; ${fitNote(fitSeen)}${notSent ? ': the deterministic summary stands in' : ''}` : ''),
      changes: [{ kind: 'history_summarised', removed: head.length, kept: tail.length, summary: result.summary }],
      ...withCalls,
    }),
  };
}
