/**
 * Money in the loop, on the real loop with the scripted model and a fake clock: the price table
 * and the ledger (per request, per tool call, per agent), the dollar ceiling that stops a run at
 * the safe point before the call that would cross it, and the fallback model after a permanent
 * 529 (the overloaded retry budget spent) — as Claude Code's `--max-budget-usd` / `--fallback-model`.
 */
import { describe, expect, it } from 'vitest';
import { cost } from '../../src/harness/index.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const { DEFAULT_PRICE_TABLE, costOfEvents, parsePriceTable, priceFor, costOfUsage } = cost;
const read = { content: [{ type: 'tool_use' as const, name: 'read', input: { file_path: 'notes.txt' } }] };
const done = { content: [{ type: 'text' as const, text: 'done' }] };
const files = { 'notes.txt': 'x'.repeat(4000) };

describe('price table', () => {
  it('a model takes its own row, else its family, else the fallback row (and says it was assumed)', () => {
    expect(priceFor(DEFAULT_PRICE_TABLE, 'claude-opus-5-5')).toMatchObject({ row: 'opus', assumed: false, price: { input: 5, output: 25 } });
    expect(priceFor(DEFAULT_PRICE_TABLE, 'claude-sonnet-5-5').price).toEqual({ input: 3, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3, output: 15 });
    expect(priceFor(DEFAULT_PRICE_TABLE, 'scripted')).toMatchObject({ row: 'sonnet', assumed: true });
    const own = { ...DEFAULT_PRICE_TABLE, models: { ...DEFAULT_PRICE_TABLE.models, 'claude-opus-5-5': { input: 4, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.4, output: 20 } } };
    expect(priceFor(own, 'claude-opus-5-5').row).toBe('claude-opus-5-5');
  });

  it('prices each column: 1M of each kind of token costs its column', () => {
    const c = costOfUsage({ input_tokens: 1e6, cache_creation_input_tokens: 1e6, cache_read_input_tokens: 1e6, output_tokens: 1e6 }, priceFor(DEFAULT_PRICE_TABLE, 'sonnet').price);
    expect(c).toEqual({ input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15, total: 22.05 });
  });

  it('an edited table is checked strictly: the first problem is named with its path', () => {
    expect(parsePriceTable({ ...DEFAULT_PRICE_TABLE, date: 'today' })).toEqual({ ok: false, problem: 'date: a date as YYYY-MM-DD' });
    expect(parsePriceTable({ ...DEFAULT_PRICE_TABLE, fallback: 'gpt' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^fallback: "gpt" is not one of the models/) });
    expect(parsePriceTable({ ...DEFAULT_PRICE_TABLE, extra: 1 })).toMatchObject({ ok: false });
    expect(parsePriceTable(DEFAULT_PRICE_TABLE)).toEqual({ ok: true, table: DEFAULT_PRICE_TABLE });
  });
});

describe('the cost of a run', () => {
  it('every request is priced; each tool call gets its result’s share of the request that carries it back', async () => {
    const { input, deps } = await setup([read, done], { files });
    const { events } = await drain(input, deps);
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    const responses = ofType(events, 'model.response');
    expect(report.requests).toHaveLength(2);
    const price = priceFor(DEFAULT_PRICE_TABLE, 'test-model').price;
    expect(report.totalUsd).toBeCloseTo(responses.reduce((t, r) => t + costOfUsage(r.usage, price).total, 0), 12);
    const [call] = report.toolCalls;
    const second = responses[1]!.usage;
    const inputTokens = second.input_tokens + second.cache_creation_input_tokens + second.cache_read_input_tokens;
    const c = costOfUsage(second, price);
    const resultChars = ofType(events, 'tool.result')[0]!.content.length;
    expect(call).toMatchObject({ name: 'read', turn: 2, tokens: Math.ceil(resultChars / 4) });
    expect(call!.usd).toBeCloseTo(((c.input + c.cacheWrite + c.cacheRead) * call!.tokens) / inputTokens, 12);
    expect(call!.usd).toBeGreaterThan(0);
    expect(report.agents).toEqual([expect.objectContaining({ agentId: 'main', requests: 2, ownUsd: report.totalUsd, totalUsd: report.totalUsd })]);
  });
});

describe('budget ceiling', () => {
  it('stops at the safe point before the call that would cross it, with max_budget and a budget.exceeded event', async () => {
    // Price of one call here: ~1.1k input tokens at $3/MTok ≈ $0.0035 (+ a little output).
    const { input, deps, client } = await setup([read, read, read, read, done], { files, input: { budget: { maxUsd: 0.009, prices: DEFAULT_PRICE_TABLE } } });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('max_budget');
    const stop = ofType(events, 'budget.exceeded');
    expect(stop).toHaveLength(1);
    const s = stop[0]!;
    const spent = costOfEvents(events, DEFAULT_PRICE_TABLE).totalUsd;
    expect(s.spentUsd).toBeCloseTo(spent, 12);
    expect(s.spentUsd).toBeLessThanOrEqual(0.009);
    expect(s.spentUsd + s.nextEstimateUsd).toBeGreaterThan(0.009);
    // The estimate is the next request's input tokens at the uncached base rate.
    expect(s.nextEstimateUsd).toBeCloseTo((s.nextInputTokens * 3) / 1e6, 12);
    // No request after the stop; the transcript stays valid (every tool_use answered).
    const after = events.slice(events.indexOf(s));
    expect(after.some((e) => e.type === 'model.request')).toBe(false);
    expect(client.requests.length).toBe(ofType(events, 'model.request').length);
    expect(ofType(events, 'transition').at(-1)).toMatchObject({ reason: 'max_budget', detail: expect.stringMatching(/^spent \$0\.\d{4} of \$0\.0090; the next call/) });
    expect(result.messages.at(-1)!.role).toBe('user');
  });

  it('without a ceiling the same run completes', async () => {
    const { input, deps } = await setup([read, read, read, read, done], { files });
    expect((await drain(input, deps)).result.reason).toBe('completed');
  });
});

describe('fallback model', () => {
  it('a permanent 529 past the overloaded retry budget switches to the fallback, visibly, in the same turn', async () => {
    const f = { fault: { kind: 'http' as const, status: 529 } };
    const { input, deps, client } = await setup([f, f, f, done], { input: { fallbackModel: 'claude-haiku-5-5', budgets: { overloadedRetries: 2 } } });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    expect(client.requests.map((r) => r.model)).toEqual(['test-model', 'test-model', 'test-model', 'claude-haiku-5-5']);
    expect(ofType(events, 'model.fallback')).toEqual([expect.objectContaining({ from: 'test-model', to: 'claude-haiku-5-5', error: expect.objectContaining({ kind: 'overloaded' }) })]);
    expect(ofType(events, 'transition').map((t) => t.reason)).toEqual(['model_retry', 'model_retry', 'model_fallback', 'completed']);
    expect(result.turns).toBe(1);
    // The ledger prices the fallback's call at the fallback's row.
    expect(costOfEvents(events, DEFAULT_PRICE_TABLE).requests.map((r) => r.row)).toEqual(['haiku']);
  });

  it('falls back once: when the fallback fails too, the run ends with model_error', async () => {
    const nf = { fault: { kind: 'http' as const, status: 404, errorType: 'not_found_error' } };
    const { input, deps } = await setup([nf, nf, done], { input: { fallbackModel: 'claude-haiku-5-5' } });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('model_error');
    expect(ofType(events, 'model.fallback')).toHaveLength(1);
  });
});
