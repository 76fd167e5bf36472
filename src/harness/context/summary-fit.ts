/**
 * A summary request must fit before it is sent. Collapse and auto-compact ask the model for a
 * written summary in a request of their own, sized by the history they summarise — so that request
 * is checked like any other: its input plus `max_tokens` must fit the model's window (the API
 * rejects more), and, when the run has a dollar ceiling, its input at the uncached base rate (the
 * budget site's floor, `cost/budget.ts`) must fit what is left of it.
 *
 * {@link planSummaryRequest} first lowers `max_tokens` (down to {@link SUMMARY_MIN_OUTPUT_TOKENS}),
 * then leaves the oldest messages of the summarised range out of the rendered transcript (the
 * first, the task, always stays) — what Claude Code does when its compact request is itself too
 * long. When even the smallest request does not fit, it is not sent: the caller keeps (collapse) or
 * falls back to (auto-compact) the deterministic summary, and the `compaction.layer` event's
 * `summaryCalls[].fit` says which limit decided and what was left out.
 */
import type { Message, TextBlock, Usage } from '../messages.ts';
import type { SummaryFitNote } from '../trace.ts';
import { CHARS_PER_TOKEN, requestTokens } from './tokens.ts';

/** What is left of the run's dollar ceiling for summary calls before the next agent request. */
export type SummaryBudget = {
  /** Dollars the run may still spend (ceiling minus what it spent, summary calls made so far included). */
  remainingUsd: number;
  /** Dollars one uncached input token of `model` costs. */
  inputUsdPerToken(model: string): number;
  /** Dollars of a call from its reported usage (to count one summary call before the next). */
  costOf(model: string, usage: Usage): number;
};

/** What a summary request must fit: the model's context window and, when set, the run's budget. */
export type SummaryLimit = { windowTokens: number; budget?: SummaryBudget };

/** The reply a summary request may be squeezed to before its input is cut instead. */
export const SUMMARY_MIN_OUTPUT_TOKENS = 1_024;

/** A summary request rendered with its transcript cut to `maxChars` (undefined: its own default). */
export type SummaryRequestBuild = (maxChars: number | undefined) => {
  request: { system: TextBlock[]; messages: Message[] };
  /** Characters of the rendered transcript, and messages it left out to fit. */
  chars: number;
  leftOut: number;
};

export type SummaryPlan =
  | { ok: true; request: { system: TextBlock[]; messages: Message[] }; maxTokens: number; fit?: SummaryFitNote }
  | { ok: false; fit: SummaryFitNote; reason: string };

function inputTokens(request: { system: TextBlock[]; messages: Message[] }): number {
  return requestTokens({ system: request.system, messages: request.messages }).total;
}

/** The limit left after `calls` (this step's earlier summary calls) were paid for. */
export function limitAfter(limit: SummaryLimit | undefined, calls: readonly { model: string; usage: Usage | null }[]): SummaryLimit | undefined {
  if (!limit?.budget) return limit;
  const spent = calls.reduce((n, c) => n + (c.usage ? limit.budget!.costOf(c.model, c.usage) : 0), 0);
  return spent === 0 ? limit : { ...limit, budget: { ...limit.budget, remainingUsd: limit.budget.remainingUsd - spent } };
}

/** The request to send for `model` under `limit`, made smaller when it has to be; or why none can be sent. */
export function planSummaryRequest(args: { build: SummaryRequestBuild; model: string; maxTokens: number; limit: SummaryLimit | undefined }): SummaryPlan {
  const { build, model, maxTokens, limit } = args;
  const full = build(undefined);
  const fullTokens = inputTokens(full.request);
  if (!limit) return { ok: true, request: full.request, maxTokens };
  const window = limit.windowTokens;
  // The reply must fit beside the input: lower max_tokens first, down to a floor.
  const out = Math.max(Math.min(maxTokens, SUMMARY_MIN_OUTPUT_TOKENS), Math.min(maxTokens, window - fullTokens));
  const byWindow = window - out;
  const perToken = limit.budget ? limit.budget.inputUsdPerToken(model) : 0;
  const byBudget = limit.budget && perToken > 0 ? Math.floor(Math.max(0, limit.budget.remainingUsd) / perToken) : Infinity;
  const by: SummaryFitNote['by'] = byBudget < byWindow ? 'budget' : 'window';
  const allowed = Math.min(byWindow, byBudget);
  const note = (tokens: number, leftOut: number, sent: boolean): SummaryFitNote => ({ by, limitTokens: allowed, fullTokens, tokens, leftOut, maxTokens: out, sent });
  // Fits (perhaps with a smaller max_tokens, which only caps the reply): nothing to report.
  if (fullTokens <= allowed) return { ok: true, request: full.request, maxTokens: out };
  // Leave the oldest messages out until the estimate fits (the estimator is chars/4 plus framing,
  // so a few rounds settle it); the task message and the newest one always stay.
  let chars = full.chars;
  let tokens = fullTokens;
  for (let round = 0; round < 8 && chars > 0; round++) {
    chars = Math.max(0, chars - (tokens - allowed) * CHARS_PER_TOKEN - 64);
    const cut = build(chars);
    tokens = inputTokens(cut.request);
    if (tokens <= allowed) return { ok: true, request: cut.request, maxTokens: out, fit: note(tokens, cut.leftOut, true) };
  }
  const what = by === 'window' ? `the ${window}-token window (with ${out} for the reply)` : `what is left of the run's budget (~${allowed} input tokens)`;
  return { ok: false, fit: note(tokens, 0, false), reason: `not sent: the summary request (~${fullTokens} tokens, ~${tokens} at its smallest) does not fit ${what}` };
}

/** A sentence for the event's reason when a plan had to cut or was refused (empty without a note). */
export function fitNote(fit: SummaryFitNote | undefined): string {
  if (!fit) return '';
  const limit = fit.by === 'window' ? 'the window' : "the run's budget";
  if (!fit.sent) return `the summary request (~${fit.fullTokens} tokens) did not fit ${limit} and was not sent`;
  return `the summary request was cut to fit ${limit}: its ${fit.leftOut} oldest message(s) left out (~${fit.fullTokens} → ~${fit.tokens} tokens)`;
}
