import { describe, expect, it } from 'vitest';
import type { Message, TextBlock } from '../../src/harness/messages.ts';
import { cacheBreakDiff, cacheStats, countBreakpoints, overallHitRate, placeBreakpoints } from '../../src/harness/context/cache.ts';
import { emptyCacheSim, simulateCacheUsage } from '../../src/harness/context/cache-sim.ts';
import { commonPrefixTokens, linearize } from '../../src/harness/context/prefix.ts';
import { compareEstimate, actualInputTokens, requestTokens } from '../../src/harness/context/tokens.ts';
import { prepareContext, recordCacheUsage } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import { drain, exchange, history, SYSTEM, tools } from './context-fixtures.ts';

const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
const req = (messages: Message[], extra: Partial<{ system: TextBlock[]; model: string }> = {}) =>
  ({ model: 'm', ...placeBreakpoints({ system: extra.system ?? system, tools, messages }), ...(extra.model ? { model: extra.model } : {}) });

/** JSON with the cache markers removed: what the cache keys on. */
const canonical = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'cache_control' ? undefined : v));

describe('breakpoint placement', () => {
  it('marks the last tool, the last system block, the conversation end and the previous turn’s end — never more than 4', () => {
    const msgs = history('task', [[100], [100, 100], []]);
    const snapshot = JSON.stringify(msgs);
    const r = placeBreakpoints({ system, tools, messages: msgs });
    expect(countBreakpoints(r)).toBe(4);
    expect(r.tools[2]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(r.tools[0]!.cache_control).toBeUndefined();
    expect(r.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    const last = r.messages[r.messages.length - 1]!.content as { cache_control?: unknown }[];
    expect(last[last.length - 1]!.cache_control).toBeDefined();
    const prevEnd = r.messages[r.messages.length - 3]!.content as { cache_control?: unknown }[];
    expect(prevEnd[prevEnd.length - 1]!.cache_control).toBeDefined();
    expect(JSON.stringify(msgs)).toBe(snapshot); // inputs untouched
    // Markers already in the history are replaced, not added to.
    expect(countBreakpoints(placeBreakpoints({ system: r.system, tools: r.tools, messages: r.messages }))).toBe(4);
    // A one-message history and a thinking-only end are fine.
    expect(countBreakpoints(placeBreakpoints({ system, tools, messages: [{ role: 'user', content: 'hi' }] }))).toBe(3);
    expect(countBreakpoints(placeBreakpoints({ system: [], tools: [], messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }] }] }))).toBe(0);
  });

  it('appending an exchange keeps the previous request a byte-identical prefix (markers aside)', () => {
    let msgs = history('task', [[100]]);
    let prev = req(msgs);
    for (let i = 0; i < 5; i++) {
      msgs = [...msgs, ...exchange([300, 10])];
      const next = req(msgs);
      expect(cacheBreakDiff(prev, next)).toBeNull();
      expect(JSON.stringify(next.tools)).toBe(JSON.stringify(prev.tools));
      expect(JSON.stringify(next.system)).toBe(JSON.stringify(prev.system));
      prev.messages.forEach((m, j) => expect(canonical(next.messages[j])).toBe(canonical(m)));
      prev = next;
    }
  });
});

describe('cacheBreakDiff', () => {
  const msgs = history('task', [[100], [100], [100]]);
  const base = req(msgs);
  it('names the tool list, the system text, the model or the first changed message', () => {
    expect(cacheBreakDiff(base, { ...base, tools: [...base.tools.slice(0, 2)] })).toMatchObject({ part: 'tools' });
    const sys = cacheBreakDiff(base, req(msgs, { system: [{ type: 'text', text: `${SYSTEM} Today is Monday.` }] }));
    expect(sys).toMatchObject({ part: 'system' });
    expect(sys!.after).toContain('Monday');
    expect(cacheBreakDiff(base, req(msgs, { model: 'other' }))).toMatchObject({ part: 'model' });
    const edited = [...msgs];
    edited[3] = { role: 'assistant', content: [{ type: 'text', text: 'rewritten' }] };
    const d = cacheBreakDiff(base, req(edited));
    expect(d).toMatchObject({ part: 'messages', index: 3 });
    expect(d!.after).toContain('rewritten');
    expect(d!.sharedPrefixTokens).toBeGreaterThan(0);
    expect(cacheBreakDiff(base, req(msgs.slice(0, 3)))).toMatchObject({ part: 'messages', index: 3, after: '(removed)' });
    // Extra blocks in the last message count as appending.
    const extended = [...msgs.slice(0, -1), { role: 'user' as const, content: [...(msgs[msgs.length - 1]!.content as []), { type: 'text' as const, text: 'more' }] }];
    expect(cacheBreakDiff(base, req(extended))).toBeNull();
  });

  it('recordCacheUsage reports stats, the diff, and rolls the cache reads forward', () => {
    const s1 = recordCacheUsage(emptyContextState(), { input_tokens: 10, cache_read_input_tokens: 80, cache_creation_input_tokens: 10 });
    expect(s1.event).toMatchObject({ type: 'cache.stats', read: 80, creation: 10, uncached: 10, hitRate: 0.8, breakDiff: null });
    const s2 = recordCacheUsage(s1.state, { input_tokens: 5 }, { prev: base, current: { ...base, tools: [] } });
    expect(s2.state.cacheReads).toEqual({ previous: 80, last: 0 });
    expect(s2.event.breakDiff).toMatchObject({ part: 'tools' });
  });

  it('a microcompact trim in the pipeline shows as the message it changed', async () => {
    const twelve = history('task', Array.from({ length: 12 }, () => [2_000]));
    const settings = { windowTokens: 10_000_000, microcompact: { cacheAware: false, keepRecent: 8 } };
    const a = await drain(prepareContext({ messages: twelve.slice(0, -2), system, tools, state: emptyContextState(), settings }));
    const b = await drain(prepareContext({ messages: twelve, system, tools, state: a.result.nextState, settings }));
    const d = cacheBreakDiff(a.result.request, b.result.request);
    expect(d).toMatchObject({ part: 'messages', index: 8 });
    expect(d!.after).toContain('stored as ref');
  });
});

describe('cache simulator', () => {
  it('writes on the first call, reads the prefix on an append, and loses it on a mutation', () => {
    const msgs = history('task', [[4_000], [4_000]]);
    const r1 = req(msgs);
    const total1 = linearize(r1).at(-1)!.tokens;
    const c1 = simulateCacheUsage(emptyCacheSim(), r1);
    expect(c1.usage.cache_read_input_tokens).toBe(0);
    expect(c1.usage.cache_creation_input_tokens).toBe(total1);
    const more = [...msgs, ...exchange([4_000])];
    const r2 = req(more);
    const c2 = simulateCacheUsage(c1.next, r2);
    expect(c2.usage.cache_read_input_tokens).toBe(total1);
    expect(c2.usage.cache_creation_input_tokens).toBe(linearize(r2).at(-1)!.tokens - total1);
    expect(c2.usage.input_tokens).toBe(0);
    // Mutating message 2 leaves only tools + system cached.
    const mutated = [...more];
    mutated[2] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: (more[1]!.content as { id?: string }[])[1]!.id!, content: 'short' }] };
    const c3 = simulateCacheUsage(c2.next, req(mutated));
    const toolsAndSystem = requestTokens({ system, tools, messages: [] }).total;
    expect(c3.usage.cache_read_input_tokens).toBe(toolsAndSystem);
    expect(cacheStats(c3.usage).hitRate).toBeLessThan(0.5);
    expect(overallHitRate([cacheStats(c1.usage), cacheStats(c2.usage)])).toBeGreaterThan(0.3);
  });

  it('does not cache a prefix under the minimum, and needs a breakpoint within 20 blocks to read', () => {
    const small = { model: 'm', ...placeBreakpoints({ system: [{ type: 'text', text: 'hi' }], tools: [], messages: [{ role: 'user', content: 'hello' }] }) };
    const s = simulateCacheUsage(emptyCacheSim(), small);
    expect(s.usage.cache_creation_input_tokens).toBe(0);
    expect(s.next.entries).toEqual([]);
    // A turn with 30 tool results: without the previous-turn breakpoint the read cannot look back far enough.
    const msgs = history('task', [[4_000]]);
    const wide = [...msgs, ...exchange(Array.from({ length: 30 }, () => 50))];
    const lookback = (previousTurn: boolean) => {
      const r1 = { model: 'm', ...placeBreakpoints({ system, tools, messages: msgs }, { previousTurn }) };
      const c1 = simulateCacheUsage(emptyCacheSim(), r1);
      const r2 = { model: 'm', ...placeBreakpoints({ system, tools, messages: wide }, { previousTurn }) };
      return { read: simulateCacheUsage(c1.next, r2).usage.cache_read_input_tokens, full: linearize(r1).at(-1)!.tokens };
    };
    const without = lookback(false);
    expect(without.read).toBeLessThan(without.full);
    const withBp = lookback(true);
    expect(withBp.read).toBe(withBp.full);
  });

  it('commonPrefixTokens counts what two requests share', () => {
    const msgs = history('task', [[1_000]]);
    const a = req(msgs);
    expect(commonPrefixTokens(a, a)).toBe(linearize(a).at(-1)!.tokens);
    expect(commonPrefixTokens(a, req(msgs, { system: [{ type: 'text', text: 'other' }] }))).toBe(requestTokens({ tools, messages: [] }).total);
  });
});

describe('token accounting', () => {
  it('estimates per part at chars/4 and compares with real numbers', () => {
    const t = requestTokens({ system: 'x'.repeat(400), tools: [], messages: [{ role: 'user', content: 'y'.repeat(40) }], memory: 'z'.repeat(80) });
    expect(t.system).toBe(103);
    expect(t.memory).toBe(23);
    expect(t.messages).toBe(10 + 3 + 4);
    expect(t.total).toBe(t.system + t.memory + t.messages);
    expect(compareEstimate(110, 100)).toEqual({ estimate: 110, actual: 100, error: 10, relativeError: 0.1 });
    expect(compareEstimate(0, 0).relativeError).toBe(0);
    expect(actualInputTokens({ input_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 5 })).toBe(100);
  });
});
