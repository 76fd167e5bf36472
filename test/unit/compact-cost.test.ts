/**
 * Auto-compact's summary call costs money, as in Claude Code (`/compact` and auto-compact show in
 * `/cost`): its model and usage go on the `compaction.layer` event (`summaryCalls`), the cost
 * ledger prices it as its own `compact_summary` line, the run's dollar ceiling counts it, and the
 * page's event line names the model. Real loop, scripted model (the summary call is one of its turns).
 */
import { describe, expect, it } from 'vitest';
import { cost, type TraceEvent } from '../../src/harness/index.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { summarize as eventLine } from '../../src/ui/events/summary.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

const { DEFAULT_PRICE_TABLE, costOfEvents, costSummaryLines } = cost;

/** Six earlier exchanges of ~1k tokens each, then the prompt: over the line of a 10k window at 50 %. */
const HISTORY = Array.from({ length: 6 }, (_, i) => [
  { role: 'user' as const, content: `question ${i} ${'q'.repeat(2000)}` },
  { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i} ${'a'.repeat(2000)}` }] },
]).flat();
const CONTEXT = { windowTokens: 10_000, autoCompactThreshold: 0.5, collapse: { enabled: false } };
const SUMMARY_USAGE = { input_tokens: 6_000, output_tokens: 400, cache_creation_input_tokens: 1_000, cache_read_input_tokens: 2_000 };
const SUMMARY: ScriptedTurn = { content: [{ type: 'text', text: '## Primary Request and Intent\nanswer the questions' }], usage: SUMMARY_USAGE };
const DONE: ScriptedTurn = { content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 900, output_tokens: 5 } };

/** The summary's dollars by hand: `test-model` takes the table's fallback row (Sonnet: $3 in, $3.75 5-min write, $0.30 read, $15 out per MTok). */
const SUMMARY_USD = (6_000 * 3 + 1_000 * 3.75 + 2_000 * 0.3 + 400 * 15) / 1e6;

function compactEvent(events: TraceEvent[]) {
  return ofType(events, 'compaction.layer').find((e) => e.layer === 'auto_compact' && e.summaryCalls)!;
}

describe('auto-compact’s summary call is priced', () => {
  it('an auto-compact puts the call’s model and usage on its event; the ledger has a compact_summary line of usage × prices', async () => {
    const s = await setup([SUMMARY, DONE], { input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: CONTEXT } });
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    expect(s.client.requests).toHaveLength(2);
    const e = compactEvent(events);
    expect(e).toMatchObject({ fired: true, committed: true });
    // Summarised: everything before the last exchange (the last answer and the prompt stay verbatim).
    expect(e.summaryCalls).toEqual([{ from: 0, to: HISTORY.length - 2, model: 'test-model', usage: SUMMARY_USAGE }]);
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls).toHaveLength(1);
    const line = report.sideCalls[0]!;
    expect(line).toMatchObject({ kind: 'compact_summary', model: 'test-model', agentId: 'main', usage: SUMMARY_USAGE, seq: e.seq });
    expect(line.cost.total).toBeCloseTo(SUMMARY_USD, 12);
    // In the run's total and in main's, beside the one agent request.
    expect(report.requests).toHaveLength(1);
    expect(report.totalUsd).toBeCloseTo(report.requests[0]!.cost.total + SUMMARY_USD, 12);
    expect(report.agents[0]!.totalUsd).toBeCloseTo(report.totalUsd, 12);
    expect(costSummaryLines(report, { apiMs: 0, wallMs: 0 }).join('\n')).toContain(`compact_summary · test-model: ${cost.formatUsd(SUMMARY_USD)}`);
    // The event line in the page says who wrote the summary.
    expect(eventLine(e)).toMatch(/auto_compact fired · .* · summary by test-model$/);
  });

  it('a reactive compact after "prompt is too long" is priced the same way', async () => {
    const tooLong: ScriptedTurn = { fault: { kind: 'http', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
    const s = await setup([tooLong, SUMMARY, DONE], { input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: { collapse: { enabled: false } } } });
    const { events, result } = await drain(s.input, s.deps);
    expect(transitions(events)).toEqual(['reactive_compact_retry', 'completed']);
    expect(result.reason).toBe('completed');
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls.map((c) => [c.kind, c.model])).toEqual([['compact_summary', 'test-model']]);
    expect(report.sideCalls[0]!.cost.total).toBeCloseTo(SUMMARY_USD, 12);
  });

  it('a failed summary call is still priced (it was billed) and says why on the event', async () => {
    const empty: ScriptedTurn = { content: [{ type: 'text', text: '   ' }], usage: { input_tokens: 5_000, output_tokens: 1 } };
    const s = await setup([empty, DONE], { input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: CONTEXT } });
    const { events } = await drain(s.input, s.deps);
    const e = compactEvent(events);
    expect(e.fired).toBe(false);
    expect(e.summaryCalls).toEqual([expect.objectContaining({ model: 'test-model', fallback: 'the model returned an empty summary' })]);
    expect(eventLine(e)).toMatch(/summary call to test-model failed$/);
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls[0]).toMatchObject({ kind: 'compact_summary' });
    expect(report.sideCalls[0]!.cost.total).toBeCloseTo((5_000 * 3 + 15) / 1e6, 12);
  });

  it('/compact makes the same call: its ledger has only the compact_summary line', async () => {
    const s = await setup([SUMMARY], { input: { messages: [...HISTORY, { role: 'user', content: '/compact keep the answers' }] } });
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    expect(s.client.requests).toHaveLength(1);
    // The instructions reached the summary request.
    expect(JSON.stringify(s.client.requests[0]!.messages)).toContain('keep the answers');
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.requests).toHaveLength(0);
    expect(report.sideCalls.map((c) => [c.kind, c.model, c.usage])).toEqual([['compact_summary', 'test-model', SUMMARY_USAGE]]);
    expect(report.totalUsd).toBeCloseTo(SUMMARY_USD, 12);
    // The page's run-end card says what the run cost: the summary.
    const end = deriveConversation(events, { settled: true }).find((i) => i.kind === 'end');
    expect(end && end.kind === 'end' && end.usd).toBeCloseTo(SUMMARY_USD, 12);
  });

  it('a model-free summariser makes no call: no summaryCalls, nothing priced (scripted lessons stay as they were)', async () => {
    const s = await setup([DONE], { input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: CONTEXT } });
    const { events } = await drain(s.input, { ...s.deps, summarize: async () => ({ ok: true, summary: 'a summary written without a model' }) });
    const e = ofType(events, 'compaction.layer').find((x) => x.layer === 'auto_compact')!;
    expect(e.fired).toBe(true);
    expect(e.summaryCalls).toBeUndefined();
    expect(costOfEvents(events, DEFAULT_PRICE_TABLE).sideCalls).toEqual([]);
  });
});

describe('the dollar ceiling counts the summary call', () => {
  it('a summary call that crosses the budget stops the run at the next safe point, as any budget stop', async () => {
    // Nothing spent before the summary; the agent's request alone (~$0.009 estimated) would fit
    // under $0.02, but after the summary ($0.0284) it would not.
    const s = await setup([SUMMARY, DONE], {
      input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: CONTEXT, budget: { maxUsd: 0.02, prices: DEFAULT_PRICE_TABLE } },
    });
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('max_budget');
    const stop = ofType(events, 'budget.exceeded');
    expect(stop).toHaveLength(1);
    expect(stop[0]!.spentUsd).toBeCloseTo(SUMMARY_USD, 12);
    // Stopped before the agent's request: the summary was the only call made.
    expect(s.client.requests).toHaveLength(1);
    expect(ofType(events, 'model.request')).toHaveLength(0);
    expect(events.indexOf(stop[0]!)).toBeGreaterThan(events.indexOf(compactEvent(events)));
    expect(ofType(events, 'transition').at(-1)).toMatchObject({ reason: 'max_budget', detail: expect.stringMatching(/^spent \$0\.0284 of \$0\.0200; the next call/) });
    // The compacted history is kept: the summary was paid for.
    expect(result.messages.length).toBeLessThan(HISTORY.length);
  });

  it('under a ceiling the summary fits, the same run completes', async () => {
    const s = await setup([SUMMARY, DONE], {
      input: { messages: [...HISTORY, { role: 'user', content: 'and now?' }], context: CONTEXT, budget: { maxUsd: 0.05, prices: DEFAULT_PRICE_TABLE } },
    });
    const { result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
  });
});
