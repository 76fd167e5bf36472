/**
 * The cost rules of the context pipeline (issue 10 §3): a trim or a collapse is a cache break, so
 * it must be worth what it re-writes; after a rewrite the unchanged prefix is read from the cache
 * through the anchor breakpoint. Each test fails on the rule it pins being taken out.
 */
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../../src/harness/messages.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import type { ContextSettingsInput } from '../../src/harness/context/settings.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { emptyCacheSim, simulateCacheUsage } from '../../src/harness/context/cache-sim.ts';
import { countBreakpoints } from '../../src/harness/context/cache.ts';
import { linearize } from '../../src/harness/context/prefix.ts';
import { messagesTokens } from '../../src/harness/context/tokens.ts';
import { drain, exchange, history, layer, SYSTEM, tools } from './context-fixtures.ts';

async function run(messages: Message[], settings: ContextSettingsInput, extra: Partial<Parameters<typeof prepareContext>[0]> = {}) {
  return drain(prepareContext({ messages, system: SYSTEM, tools, state: emptyContextState(), settings, summarize: deterministicSummarizer, ...extra }));
}
const healthy = (n: number): ContextState => ({ ...emptyContextState(), cacheReads: { previous: n, last: n } });
const noPayback = { paybackCalls: 0 };

describe('microcompact weighs a trim against what it re-writes', () => {
  // Two small old results under a long, large recent tail: the late trim the issue describes.
  const late = () => history('task', [[1_200], [1_200], ...Array.from({ length: 8 }, () => [30_000])]);
  const pressured: ContextSettingsInput = { windowTokens: 80_000, collapse: { enabled: true, threshold: 0.7, ...noPayback }, autoCompact: { enabled: false }, microcompact: { keepRecent: 8, ...noPayback } };

  it('under pressure alone, a trim that saves little of what it re-writes is declined and collapse takes its turn', async () => {
    const { events, result } = await run(late(), pressured, { state: healthy(60_000) });
    const mc = layer(events, 'microcompact');
    expect(mc.fired).toBe(false);
    expect(mc.reason).toMatch(/would save \d+ tokens and re-write \d+/);
    expect(result.committed).toBeUndefined();
    expect(layer(events, 'collapse').changes.some((c) => c.kind === 'range_collapsed' && c.isNew)).toBe(true);
  });

  it('with the share set to 0 (the old rule) the same trim applies', async () => {
    const { events } = await run(late(), { ...pressured, microcompact: { keepRecent: 8, pressureMinSavingShare: 0, ...noPayback } }, { state: healthy(60_000) });
    expect(layer(events, 'microcompact').fired).toBe(true);
  });

  it('with a healthy cache, a trim that pays for itself within paybackCalls applies; one that does not, waits', async () => {
    const quiet = { windowTokens: 10_000_000, collapse: { enabled: false }, autoCompact: { enabled: false } };
    // 6 old results of 20k chars, 8 recent of 1k: saves ~30k tokens, re-writes ~3k.
    const big = history('task', [...Array.from({ length: 6 }, () => [20_000]), ...Array.from({ length: 8 }, () => [1_000])]);
    const pays = await run(big, { ...quiet, microcompact: { keepRecent: 8 } }, { state: healthy(40_000) });
    expect(layer(pays.events, 'microcompact').reason).toMatch(/paid back within \d+ call/);
    expect(pays.result.committed).toBeDefined();
    const off = await run(big, { ...quiet, microcompact: { keepRecent: 8, ...noPayback } }, { state: healthy(40_000) });
    expect(layer(off.events, 'microcompact').reason).toMatch(/healthy/);
    // 2 old results of 1.2k under 8 large recent ones: the saving never covers the write.
    const small = await run(late(), { ...quiet, microcompact: { keepRecent: 8 } }, { state: healthy(60_000) });
    expect(layer(small.events, 'microcompact').reason).toMatch(/healthy/);
  });
});

describe('the anchor breakpoint', () => {
  /** Two calls through the cache simulator; the second applies the queued trims (cache expired rule is not used: it empties the cache). */
  async function rewriteRead(anchorBreakpoint: boolean) {
    const settings: ContextSettingsInput = {
      windowTokens: 10_000_000,
      collapse: { enabled: false },
      autoCompact: { enabled: false },
      microcompact: { keepRecent: 2, paybackCalls: 0 },
      cache: { anchorBreakpoint },
    };
    // Old small results (no trim candidates) then trimmable ones: the anchor sits before the first of those.
    const msgs = history('task', [...Array.from({ length: 20 }, () => [900]), [8_000], [8_000], [8_000], [500], [500]]);
    let sim = emptyCacheSim();
    const first = await run(msgs, settings, { state: healthy(10_000) });
    expect(first.result.committed).toBeUndefined();
    const req1: ModelRequest = { model: 'm', max_tokens: 1, ...first.result.request };
    sim = simulateCacheUsage(sim, req1).next;
    const more = [...msgs, ...exchange([500])];
    // The request changes the prefix anyway (evidence rule): the trims apply in this call.
    const second = await run(more, settings, { state: { ...first.result.nextState, cacheReads: { previous: 20_000, last: 5_000 }, lastCallBrokePrefix: false } });
    expect(layer(second.events, 'microcompact').fired).toBe(true);
    const req2: ModelRequest = { model: 'm', max_tokens: 1, ...second.result.request };
    expect(countBreakpoints(req2)).toBeLessThanOrEqual(4);
    const usage = simulateCacheUsage(sim, req2).usage;
    const unchanged = linearize(req2).filter((i) => i.part !== 'messages').at(-1)!.tokens + messagesTokens(more.slice(0, 41));
    return { read: usage.cache_read_input_tokens, unchanged };
  }

  it('after a trim the unchanged prefix before the first changed block is read, not written again', async () => {
    const withAnchor = await rewriteRead(true);
    expect(withAnchor.read).toBeGreaterThanOrEqual(withAnchor.unchanged * 0.95);
    const without = await rewriteRead(false);
    expect(without.read).toBeLessThan(withAnchor.unchanged / 2);
  });
});

describe('collapse gets its turn before the line when it pays for itself', () => {
  const settings = (economyFrom: number): ContextSettingsInput => ({
    windowTokens: 100_000,
    microcompact: { enabled: false },
    autoCompact: { enabled: false },
    collapse: { threshold: 0.7, keepRecentExchanges: 2, economyFrom },
  });
  // ~45k tokens: between 35 % and 70 % of the window, mostly in old exchanges.
  const msgs = () => history('task', Array.from({ length: 12 }, () => [15_000]));

  it('collapses early between economyFrom and threshold, and not when the early path is off', async () => {
    const early = await run(msgs(), settings(0.35));
    const ev = layer(early.events, 'collapse');
    expect(ev.reason).toMatch(/early: saves \d+ tokens per call/);
    expect(ev.tokensAfter).toBeLessThan(ev.tokensBefore / 3);
    const off = await run(msgs(), settings(1));
    expect(layer(off.events, 'collapse').fired).toBe(false);
  });
});
