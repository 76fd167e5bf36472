/**
 * Issue 23 §2: on the first request after a collapse rewrite, a cache breakpoint sits at the end of
 * the rewritten region (the newest summary block). The next collapse leaves everything up to it
 * unchanged, so its first request reads that prefix back instead of writing it again. Real
 * pipeline, the cache simulator the scripted model uses.
 */
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, TextBlock } from '../../src/harness/messages.ts';
import { prepareContext, recordCacheUsage } from '../../src/harness/context/pipeline.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import { emptyCacheSim, simulateCacheUsage, type CacheSimState } from '../../src/harness/context/cache-sim.ts';
import { blocksOf } from '../../src/harness/messages.ts';
import { drain, exchange, SYSTEM, tools } from './context-fixtures.ts';

const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];

type AfterCollapse = { read: number; marked: string | null };

/** 60 turns of 4k-char results in a 40k window; the first request after each new collapse, as sent and as cached. */
async function session(regionBreakpoint: boolean): Promise<AfterCollapse[]> {
  let truth: Message[] = [{ role: 'user', content: 'Refactor the payment module.' }];
  let state: ContextState = emptyContextState();
  let sim: CacheSimState = emptyCacheSim();
  const out: AfterCollapse[] = [];
  for (let i = 0; i < 60; i++) {
    const { events, result } = await drain(
      prepareContext({ messages: truth, system, tools, model: 'm', state, settings: { windowTokens: 40_000, microcompact: { enabled: false }, autoCompact: { enabled: false }, cache: { regionBreakpoint } } }),
    );
    const req: ModelRequest = { model: 'm', max_tokens: 1000, ...result.request };
    const { usage, next } = simulateCacheUsage(sim, req);
    sim = next;
    state = recordCacheUsage(result.nextState, usage).state;
    const collapsed = events.some((e) => e.type === 'compaction.layer' && e.layer === 'collapse' && e.changes.some((c) => c.kind === 'range_collapsed' && c.isNew));
    if (collapsed) {
      const marked = req.messages.flatMap((m) => blocksOf(m)).find((b, _, all) => 'cache_control' in b && b.cache_control && b !== all[all.length - 1] && b.type === 'text' && b.text.startsWith('[collapsed messages'));
      out.push({ read: usage.cache_read_input_tokens, marked: marked && marked.type === 'text' ? marked.text.slice(0, 30) : null });
    }
    truth = [...(result.committed ?? truth), ...exchange([4_000], { idPrefix: `t${i}` })];
  }
  return out;
}

describe('the region breakpoint after a collapse', () => {
  it('marks the newest summary, so the next collapse reads the region back', async () => {
    const on = await session(true);
    const off = await session(false);
    expect(on.length).toBeGreaterThanOrEqual(3);
    expect(off.length).toBe(on.length);
    // Every first request after a collapse marks its newest summary block.
    for (const c of on) expect(c.marked).toMatch(/^\[collapsed messages/);
    for (const c of off) expect(c.marked).toBeNull();
    // From the second collapse on, the earlier summaries are read, not written again.
    for (let i = 1; i < on.length; i++) expect(on[i]!.read).toBeGreaterThan(off[i]!.read);
  });
});
