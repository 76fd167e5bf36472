/**
 * Issue 21 §6 / 23 §2: a summary request (collapse's, auto-compact's) is checked before it is sent,
 * like any request: its input plus max_tokens must fit the model's window, and its input at the
 * uncached rate must fit what is left of the run's dollar ceiling. Too big: the oldest messages of
 * the summarised range are left out (the task stays); too big even then: not sent, and the
 * deterministic summary stands in. The `compaction.layer` event says which. Real loop, scripted
 * model; the collapse case over `prepareContext` with the model summariser on a scripted client.
 */
import { describe, expect, it } from 'vitest';
import { cost, type TraceEvent } from '../../src/harness/index.ts';
import { modelCollapseSummarizer } from '../../src/harness/context/collapse-model.ts';
import { COMPACT_SYSTEM } from '../../src/harness/context/compact-prompt.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import { planSummaryRequest, SUMMARY_MIN_OUTPUT_TOKENS, type SummaryBudget } from '../../src/harness/context/summary-fit.ts';
import { renderTranscriptCut, compactRequestOf } from '../../src/harness/context/compact-prompt.ts';
import { requestTokens } from '../../src/harness/context/tokens.ts';
import type { Message, ModelRequest, TextBlock } from '../../src/harness/messages.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { summarize as eventLine } from '../../src/ui/events/summary.ts';
import { drain as drainContext, exchange, layer, SYSTEM, tools } from './context-fixtures.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const { DEFAULT_PRICE_TABLE, costOfEvents } = cost;

/** `n` earlier exchanges of ~`chars`/2 tokens each, then the prompt. */
function history(n: number, chars: number): Message[] {
  return [
    ...Array.from({ length: n }, (_, i) => [
      { role: 'user' as const, content: `question ${i} ${'q'.repeat(chars)}` },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i} ${'a'.repeat(chars)}` }] },
    ]).flat(),
    { role: 'user' as const, content: 'and now?' },
  ];
}
const SUMMARY: ScriptedTurn = { content: [{ type: 'text', text: '## Primary request and intent\nanswer the questions' }], usage: { input_tokens: 6_000, output_tokens: 300 } };
const DONE: ScriptedTurn = { content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 900, output_tokens: 5 } };
const isCompact = (r: ModelRequest) => JSON.stringify(r.system ?? '').includes(COMPACT_SYSTEM.slice(0, 40));
const estimate = (r: ModelRequest) => requestTokens({ system: r.system as TextBlock[], messages: r.messages }).total;
const compactEvent = (events: TraceEvent[]) => ofType(events, 'compaction.layer').find((e) => e.layer === 'auto_compact')!;

describe('planSummaryRequest', () => {
  const messages = history(10, 4_000).slice(0, -1);
  const build = (maxChars: number | undefined) => {
    const t = renderTranscriptCut(messages, maxChars === undefined ? {} : { maxChars });
    return { request: compactRequestOf(t.text), chars: t.text.length, leftOut: t.leftOut };
  };
  const full = requestTokens({ system: build(undefined).request.system, messages: build(undefined).request.messages }).total;

  it('no limit, or room to spare: the whole request, max_tokens as asked', () => {
    expect(planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: undefined })).toMatchObject({ ok: true, maxTokens: 8_000 });
    const roomy = planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: { windowTokens: 200_000 } });
    expect(roomy).toMatchObject({ ok: true, maxTokens: 8_000 });
    expect(roomy.ok && roomy.fit).toBeUndefined();
  });

  it('the reply is squeezed first: max_tokens lowered to what the window leaves beside the input', () => {
    const plan = planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: { windowTokens: full + 3_000 } });
    expect(plan).toMatchObject({ ok: true, maxTokens: 3_000 });
    expect(plan.ok && plan.fit).toBeUndefined();
  });

  it('then the oldest messages are left out until input + max_tokens fits the window; the task stays', () => {
    const windowTokens = Math.floor(full / 2);
    const plan = planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: { windowTokens } });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.maxTokens).toBe(SUMMARY_MIN_OUTPUT_TOKENS);
    const tokens = requestTokens({ system: plan.request.system, messages: plan.request.messages }).total;
    expect(tokens + plan.maxTokens).toBeLessThanOrEqual(windowTokens);
    expect(plan.fit).toMatchObject({ by: 'window', sent: true, fullTokens: full, tokens });
    expect(plan.fit!.leftOut).toBeGreaterThan(0);
    const text = JSON.stringify(plan.request.messages);
    expect(text).toContain('question 0');
    expect(text).toContain('answer 9');
    expect(text).not.toContain('question 1 ');
    expect(text).toContain(`(${plan.fit!.leftOut} messages left out to fit)`);
  });

  it('a budget smaller than the window decides; with too little for even the smallest request, none is sent', () => {
    const budget = (remainingUsd: number): SummaryBudget => ({ remainingUsd, inputUsdPerToken: () => 3 / 1e6, costOf: () => 0 });
    const cut = planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: { windowTokens: 200_000, budget: budget((full / 2) * 3e-6) } });
    expect(cut).toMatchObject({ ok: true, fit: { by: 'budget', sent: true } });
    const none = planSummaryRequest({ build, model: 'm', maxTokens: 8_000, limit: { windowTokens: 200_000, budget: budget(0.0001) } });
    expect(none).toMatchObject({ ok: false, fit: { by: 'budget', sent: false }, reason: expect.stringMatching(/^not sent: the summary request .* does not fit what is left of the run's budget/) });
  });
});

describe('auto-compact checks its summary request before sending it', () => {
  it('a request larger than the window is cut (oldest first) so input + max_tokens fits; the event says so', async () => {
    // ~20k tokens of history in a 10k window: the summary request could not be sent whole.
    const s = await setup([SUMMARY, DONE], { input: { messages: history(10, 4_000), context: { windowTokens: 10_000, autoCompactThreshold: 0.5, collapse: { enabled: false } } } });
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    const summaryReq = s.client.requests[0]!;
    expect(isCompact(summaryReq)).toBe(true);
    expect(estimate(summaryReq) + summaryReq.max_tokens).toBeLessThanOrEqual(10_000);
    expect(JSON.stringify(summaryReq.messages)).toContain('question 0');
    expect(JSON.stringify(summaryReq.messages)).toMatch(/messages left out to fit/);
    const e = compactEvent(events);
    expect(e).toMatchObject({ fired: true, committed: true });
    expect(e.summaryCalls![0]).toMatchObject({ model: 'test-model', usage: SUMMARY.usage, fit: { by: 'window', sent: true } });
    expect(e.summaryCalls![0]!.fallback).toBeUndefined();
    expect(e.reason).toMatch(/the summary request was cut to fit the window: its \d+ oldest message\(s\) left out/);
    expect(eventLine(e)).toMatch(/summary by test-model \(request cut to fit\)$/);
  });

  it('a request the budget cannot pay for is not sent: the deterministic summary stands in, no summary line is priced', async () => {
    // The task is ~5k tokens on its own, so even the smallest summary request (the task and the newest
    // message) does not fit $0.01 at $3/MTok (~3.3k tokens); the compacted request (no tools) does.
    const messages = history(6, 2_000);
    messages[0] = { role: 'user', content: `question 0 ${'q'.repeat(20_000)}` };
    const s = await setup([DONE], {
      tools: [],
      input: { messages, context: { windowTokens: 10_000, autoCompactThreshold: 0.5, collapse: { enabled: false } }, budget: { maxUsd: 0.01, prices: DEFAULT_PRICE_TABLE } },
    });
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    expect(s.client.requests.filter(isCompact)).toHaveLength(0);
    expect(s.client.requests).toHaveLength(1);
    const e = compactEvent(events);
    expect(e).toMatchObject({ fired: true, committed: true });
    expect(e.summaryCalls).toEqual([
      { from: 0, to: 10, model: 'test-model', usage: null, fallback: expect.stringMatching(/^not sent/), fit: expect.objectContaining({ by: 'budget', sent: false }) },
    ]);
    expect(e.reason).toMatch(/did not fit the run's budget and was not sent: the deterministic summary stands in$/);
    expect(eventLine(e)).toMatch(/summary request did not fit the budget: deterministic$/);
    // The history was still compacted (the deterministic summary's sections), and nothing was spent on it.
    expect(JSON.stringify(result.messages[0])).toContain('[compacted]');
    expect(costOfEvents(events, DEFAULT_PRICE_TABLE).sideCalls).toEqual([]);
  });

  it('without a ceiling, the same run sends the summary request', async () => {
    const s = await setup([SUMMARY, DONE], { input: { messages: history(6, 2_000), context: { windowTokens: 10_000, autoCompactThreshold: 0.5, collapse: { enabled: false } } } });
    await drain(s.input, s.deps);
    expect(s.client.requests.filter(isCompact)).toHaveLength(1);
  });
});

describe('collapse checks each summary request before sending it', () => {
  const messages: Message[] = [{ role: 'user', content: 'Fix the refunds.' }];
  for (let i = 0; i < 30; i++) {
    const [a, u] = exchange([4_000], { idPrefix: `f${i}` });
    messages.push(a, u);
  }
  const settings = { windowTokens: 40_000, microcompact: { enabled: false }, autoCompact: { enabled: false } };
  const run = (turns: ScriptedTurn[], summaryBudget?: SummaryBudget, context: object = settings) => {
    const client = createScriptedClient(turns);
    const collapseSummarize = modelCollapseSummarizer(client, { model: 'claude-haiku-4-5' });
    return drainContext(
      prepareContext({ messages, system: [{ type: 'text', text: SYSTEM }], tools, model: 'm', state: emptyContextState(), settings: context, collapseSummarize, ...(summaryBudget ? { summaryBudget } : {}) }),
    ).then((r) => ({ ...r, client, collapse: layer(r.events, 'collapse') }));
  };
  const WRITTEN: ScriptedTurn = { content: [{ type: 'text', text: 'Read the files.' }], usage: { input_tokens: 5_000, output_tokens: 20 } };

  it('a request the budget left cannot pay for is not sent; the deterministic summary stays, the event says so', async () => {
    const budget: SummaryBudget = { remainingUsd: 0.0001, inputUsdPerToken: () => 1 / 1e6, costOf: () => 0 };
    const { client, collapse, result } = await run([WRITTEN], budget);
    expect(client.requests).toHaveLength(0);
    expect(collapse.summaryCalls).toEqual([expect.objectContaining({ usage: null, fallback: expect.stringMatching(/^not sent/), fit: expect.objectContaining({ by: 'budget', sent: false }) })]);
    expect(collapse.reason).toMatch(/deterministic summary stands in/);
    expect(result.nextState.collapses[0]!.summary).not.toContain('Read the files.');
  });

  it('with enough left, the same request is sent whole', async () => {
    const budget: SummaryBudget = { remainingUsd: 1, inputUsdPerToken: () => 1 / 1e6, costOf: () => 0 };
    const { client, collapse } = await run([WRITTEN], budget);
    expect(client.requests).toHaveLength(1);
    expect(collapse.summaryCalls![0]!.fit).toBeUndefined();
    expect(collapse.summaryCalls![0]!.fallback).toBeUndefined();
  });

  it('a range larger than the window is cut to fit it, oldest first', async () => {
    const { client, collapse } = await run([WRITTEN], undefined, { ...settings, windowTokens: 8_000, collapse: { threshold: 0.1 } });
    expect(client.requests).toHaveLength(1);
    const req = client.requests[0]!;
    expect(estimate(req) + req.max_tokens).toBeLessThanOrEqual(8_000);
    expect(collapse.summaryCalls![0]).toMatchObject({ fit: { by: 'window', sent: true } });
    expect(collapse.reason).toMatch(/cut to fit the window/);
  });
});
