/**
 * Money in the page's state: the run summary's cost per run (subagents included) and the fallback
 * card, derived from a real loop's events; the money settings refuse a bad price table or ceiling
 * with the problem named and keep what was in force.
 */
import { describe, expect, it } from 'vitest';
import { cost } from '../../src/harness/index.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { MoneySettings } from '../../src/ui/state/money.svelte.ts';
import { drain, setup } from './loop-helpers.ts';

const done = { content: [{ type: 'text' as const, text: 'done' }] };

describe('run summary cost and the fallback card', () => {
  it('the end card carries what the run cost; a fallback shows as its own card', async () => {
    const nf = { fault: { kind: 'http' as const, status: 404, errorType: 'not_found_error' } };
    const { input, deps } = await setup([nf, done], { input: { fallbackModel: 'claude-opus-5-5' } });
    const { events } = await drain(input, deps);
    const items = deriveConversation(events, { settled: true });
    const end = items.find((i) => i.kind === 'end');
    expect(end && end.kind === 'end' && end.usd).toBeCloseTo(cost.costOfEvents(events, cost.DEFAULT_PRICE_TABLE).totalUsd, 12);
    // Priced at the fallback's row (opus: $5 / $25), not the failed model's.
    const r = cost.costOfEvents(events, cost.DEFAULT_PRICE_TABLE).requests[0]!;
    expect(r.row).toBe('opus');
    expect(items.find((i) => i.kind === 'fallback')).toMatchObject({ from: 'test-model', to: 'claude-opus-5-5', errorKind: 'not_found' });
    // Another table prices the same run differently.
    const doubled = { ...cost.DEFAULT_PRICE_TABLE, models: { ...cost.DEFAULT_PRICE_TABLE.models, opus: cost.priceRow(10, 50) } };
    const end2 = deriveConversation(events, { settled: true, prices: doubled }).find((i) => i.kind === 'end');
    expect(end2 && end2.kind === 'end' && end2.usd).toBeCloseTo(2 * (end && end.kind === 'end' ? end.usd! : 0), 12);
  });
});

describe('money settings', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
  };

  it('an edited table applies and persists; a bad one is refused naming the field, the old one stays', async () => {
    const store = memory();
    const s = new MoneySettings(store);
    const edited = { ...cost.DEFAULT_PRICE_TABLE, source: 'my contract', models: { sonnet: cost.priceRow(2, 10) } };
    expect(await s.setPricesJson(JSON.stringify(edited))).toBeNull();
    // Read back: the built-in table until the saved one is checked (its schema loads on demand), then the saved one.
    const reloaded = new MoneySettings(store);
    expect(reloaded.prices.source).toBe(cost.DEFAULT_PRICE_TABLE.source);
    await reloaded.ready;
    expect(reloaded.prices.source).toBe('my contract');
    expect(await s.setPricesJson('{"date":"2026-01-01"')).toMatch(/^Not JSON/);
    expect(await s.setPricesJson(JSON.stringify({ ...edited, models: { sonnet: { ...cost.priceRow(2, 10), output: 'ten' } } }))).toMatch(/^models\.sonnet\.output: /);
    expect(s.prices.source).toBe('my contract');
  });

  it('a damaged saved table is never in force: the built-in one stays, with a notice naming the problem', async () => {
    const store = memory();
    store.m.set('hp.money', JSON.stringify({ prices: { ...cost.DEFAULT_PRICE_TABLE, source: 'tampered', fallback: 'gpt' }, maxBudgetUsd: 2 }));
    const s = new MoneySettings(store);
    expect(s.maxBudgetUsd).toBe(2);
    await s.ready;
    expect(s.prices).toEqual(cost.DEFAULT_PRICE_TABLE);
    expect(s.notice).toMatch(/^The saved price table was not used \(fallback: "gpt" is not one of the models/);
  });

  it('the ceiling takes dollars above 0; empty clears it; damaged storage falls back with a notice', () => {
    const store = memory();
    const s = new MoneySettings(store);
    expect(s.setBudget('0.5')).toBeNull();
    expect(new MoneySettings(store).maxBudgetUsd).toBe(0.5);
    expect(s.setBudget('-1')).toMatch(/above 0/);
    expect(s.maxBudgetUsd).toBe(0.5);
    expect(s.setBudget('')).toBeNull();
    expect(s.maxBudgetUsd).toBeNull();
    store.m.set('hp.money', '{not json');
    expect(new MoneySettings(store).notice).toMatch(/not readable/);
  });
});
