import { describe, expect, it } from 'vitest';
import type { Message, ToolResultBlock } from '../../src/harness/messages.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { prepareContext, reactiveCompact } from '../../src/harness/context/pipeline.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import type { ContextSettingsInput } from '../../src/harness/context/settings.ts';
import { deterministicSummarizer, type Summarize } from '../../src/harness/context/summarizer.ts';
import { readToolResultTool, storedResultsOf } from '../../src/harness/context/read-tool-result-tool.ts';
import { cacheBreakDiff } from '../../src/harness/context/cache.ts';
import { COMPACT_SECTIONS, buildCompactRequest } from '../../src/harness/context/compact-prompt.ts';
import { drain, exchange, history, layer, layerEvents, SYSTEM, tools } from './context-fixtures.ts';

const BIG = { windowTokens: 10_000_000 };
const quiet: ContextSettingsInput = { ...BIG, microcompact: { enabled: false }, collapse: { enabled: false }, autoCompact: { enabled: false } };

async function run(messages: Message[], settings: ContextSettingsInput, extra: Partial<Parameters<typeof prepareContext>[0]> = {}) {
  return drain(prepareContext({ messages, system: SYSTEM, tools, state: emptyContextState(), settings, summarize: deterministicSummarizer, ...extra }));
}

function results(messages: Message[]): ToolResultBlock[] {
  return messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b): b is ToolResultBlock => b.type === 'tool_result')));
}
const text = (b: ToolResultBlock) => (typeof b.content === 'string' ? b.content : b.content.map((x) => (x.type === 'text' ? x.text : '')).join(''));
const isRef = (b: ToolResultBlock) => text(b).startsWith('[tool result stored as ref ');

describe('budget reduction', () => {
  it('replaces a result over its cap by a reference and keeps the original, readable by read_tool_result', async () => {
    const msgs = history('task', [[500], [40_000]]);
    const { events, result } = await run(msgs, quiet);
    const ev = layer(events, 'budget');
    expect(ev.fired).toBe(true);
    expect(ev.committed).toBe(true);
    expect(ev.tokensAfter).toBeLessThan(ev.tokensBefore - 8_000);
    const [small, big] = results(result.committed!);
    expect(isRef(small!)).toBe(false);
    expect(isRef(big!)).toBe(true);
    expect(text(big!)).toContain('40,000 chars');
    expect(text(big!)).toContain(`read_tool_result with tool_use_id "${big!.tool_use_id}"`);
    const original = text(results(msgs)[1]!);
    expect(result.nextState.stored[big!.tool_use_id]!.content).toBe(original);
    // The tool reads it back in pages.
    const tool = readToolResultTool(storedResultsOf(() => result.nextState));
    const page1 = await tool.call({ tool_use_id: big!.tool_use_id }, {} as never);
    expect(page1.content).toContain('characters 0–20000 of 40000; call again with offset 20000');
    expect(page1.content.endsWith(original.slice(0, 20_000))).toBe(true);
    const page2 = await tool.call({ tool_use_id: big!.tool_use_id, offset: 20_000, limit: 30_000 }, {} as never);
    expect(page2.content.endsWith(original.slice(20_000))).toBe(true);
    const missing = await tool.call({ tool_use_id: 'nope' }, {} as never);
    expect(missing.isError).toBe(true);
    // The input history was not mutated.
    expect(isRef(results(msgs)[1]!)).toBe(false);
    // Acting on the newest message does not break the cached prefix.
    expect(result.nextState.lastCallBrokePrefix).toBe(false);
  });

  it('exempts tools with a non-finite cap or a perTool cap of 0, and honours lower perTool caps', async () => {
    const msgs = history('task', [[40_000]]);
    expect(layer((await run(msgs, quiet, { toolCaps: { read: Infinity } })).events, 'budget').fired).toBe(false);
    expect(layer((await run(msgs, { ...quiet, budget: { perTool: { read: 0 } } })).events, 'budget').fired).toBe(false);
    const low = await run(history('task', [[2_000]]), { ...quiet, budget: { perTool: { read: 1_000 } } });
    expect(layer(low.events, 'budget').fired).toBe(true);
  });

  it('keeps one message’s results under the per-message budget by referencing the largest first', async () => {
    const msgs = history('task', [[25_000, 29_000, 20_000, 28_000]]);
    const { result } = await run(msgs, quiet);
    const refs = results(result.committed!).map(isRef);
    expect(refs).toEqual([false, true, false, false]);
  });

  it('a referenced result that held images says they were cleared (only its text is kept)', async () => {
    const msgs = history('task', [[40_000]]);
    const block = results(msgs)[0]!;
    const png = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    block.content = [{ type: 'text', text: text(block) }, png, png];
    const { result } = await run(msgs, quiet);
    const ref = results(result.committed!)[0]!;
    expect(isRef(ref)).toBe(true);
    expect(text(ref)).toContain('[2 images cleared]');
    expect(JSON.stringify(ref.content)).not.toContain('iVBORw0KGgo=');
    // A result without images says nothing about images.
    const plain = await run(history('task', [[40_000]]), quiet);
    expect(text(results(plain.result.committed!)[0]!)).not.toContain('image');
  });
});

describe('snip', () => {
  it('drops the oldest whole exchanges beyond the window plus slack, keeps the task with a marker', async () => {
    const msgs = history('Fix the login bug', [[100], [100, 100], [], [100], [100], [100]]);
    const settings = { ...quiet, snip: { enabled: true, keepLastExchanges: 3, slack: 2 } };
    const { events, result } = await run(msgs, settings);
    const ev = layer(events, 'snip');
    expect(ev.fired).toBe(true);
    expect(ev.changes[0]).toMatchObject({ kind: 'messages_removed', from: 1, to: 6, count: 6 });
    const out = result.committed!;
    expect(out).toHaveLength(7);
    expect(JSON.stringify(out[0])).toContain('Fix the login bug');
    expect(JSON.stringify(out[0])).toContain('(6 messages so far)');
    expect(out.slice(1)).toEqual(msgs.slice(7));
    expect(checkTranscript(out)).toEqual([]);
    // Under the slack it waits.
    expect(layer((await run(history('t', [[1], [1], [1], [1]]), settings)).events, 'snip').fired).toBe(false);
    // A second snip adds to the count in the same marker.
    const again = await run([...out, ...exchange([1]), ...exchange([1])], settings);
    expect(again.result.committed).toBeDefined();
    const first = JSON.stringify(again.result.committed![0]);
    expect(first).toContain('(10 messages so far)');
    expect(first.match(/\[snip\]/g)).toHaveLength(1);
  });
});

describe('microcompact', () => {
  const twelve = () => history('task', Array.from({ length: 12 }, () => [2_000]));

  it('keeps the last N results verbatim and turns older ones into references (time-based path)', async () => {
    const msgs = twelve();
    const { events, result } = await run(msgs, { ...quiet, microcompact: { enabled: true, keepRecent: 8, cacheAware: false } });
    expect(layer(events, 'microcompact').fired).toBe(true);
    expect(results(result.committed!).map(isRef)).toEqual([true, true, true, true, false, false, false, false, false, false, false, false]);
    expect(Object.keys(result.nextState.stored)).toHaveLength(4);
    // The break is visible: the first trimmed message is where the prefix changed.
    expect(result.nextState.lastCallBrokePrefix).toBe(true);
  });

  it('an older result with an image, cleared, says "[1 image cleared]"', async () => {
    const msgs = twelve();
    const first = results(msgs)[0]!;
    first.content = [{ type: 'text', text: text(first) }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }];
    const { result } = await run(msgs, { ...quiet, microcompact: { enabled: true, keepRecent: 8, cacheAware: false } });
    const [cleared, other] = results(result.committed!);
    expect(isRef(cleared!)).toBe(true);
    expect(text(cleared!)).toContain('[1 image cleared]');
    expect(text(other!)).not.toContain('image cleared');
  });

  const cacheAware = { ...quiet, microcompact: { enabled: true, keepRecent: 8, cacheAware: true } };
  const withReads = (previous: number, last: number, extra: Partial<ContextState> = {}): ContextState => ({
    ...emptyContextState(),
    cacheReads: { previous, last },
    ...extra,
  });

  it('healthy cache: the queued trims are dropped and nothing changes', async () => {
    const msgs = twelve();
    const { events, result } = await run(msgs, cacheAware, { state: withReads(50_000, 50_000) });
    const ev = layer(events, 'microcompact');
    expect(ev.fired).toBe(false);
    expect(ev.reason).toMatch(/healthy/);
    expect(ev.changes[0]).toMatchObject({ kind: 'trims_deferred' });
    expect(result.nextState.pendingCacheEdits).toHaveLength(4);
    expect(result.committed).toBeUndefined();
  });

  it('broken cache (reads < 95 % of the previous call’s): the trims are applied', async () => {
    const { events, result } = await run(twelve(), cacheAware, { state: withReads(50_000, 20_000) });
    const ev = layer(events, 'microcompact');
    expect(ev.fired).toBe(true);
    expect(ev.reason).toMatch(/already broke/);
    expect(results(result.committed!).filter(isRef)).toHaveLength(4);
    expect(result.nextState.pendingCacheEdits).toEqual([]);
  });

  it('a drop the harness caused itself, or a drop under minDropTokens, is not a reason to trim', async () => {
    const own = await run(twelve(), cacheAware, { state: withReads(50_000, 20_000, { lastCallBrokePrefix: true }) });
    expect(layer(own.events, 'microcompact').fired).toBe(false);
    const small = await run(twelve(), cacheAware, { state: withReads(10_000, 9_000) });
    expect(layer(small.events, 'microcompact').fired).toBe(false);
  });

  it('an expired cache (TTL passed since the last call) makes trimming free', async () => {
    const state = withReads(50_000, 50_000, { lastCallAt: 1_000 });
    const fresh = await run(twelve(), cacheAware, { state, now: 1_000 + 60_000 });
    expect(layer(fresh.events, 'microcompact').fired).toBe(false);
    const stale = await run(twelve(), cacheAware, { state, now: 1_000 + 5 * 60_000 });
    expect(layer(stale.events, 'microcompact').reason).toMatch(/expired/);
  });

  it('applies when the request already changes the prefix (tools changed) or a later layer would fire', async () => {
    const first = await run(twelve(), cacheAware, { state: withReads(50_000, 50_000) });
    const changedTools = await run(twelve(), cacheAware, { state: first.result.nextState, tools: tools.slice(0, 2) });
    expect(layer(changedTools.events, 'microcompact').reason).toMatch(/already changes/);
    // Pressure with old results worth trimming (4 × 12k chars under 8 small recent ones).
    const worth = history('task', [...Array.from({ length: 4 }, () => [12_000]), ...Array.from({ length: 8 }, () => [1_000])]);
    const pressure = await run(worth, { ...cacheAware, windowTokens: 20_000, collapse: { enabled: true } }, { state: withReads(50_000, 50_000) });
    expect(layer(pressure.events, 'microcompact').reason).toMatch(/threshold/);
  });
});

describe('context collapse', () => {
  const settings: ContextSettingsInput = { windowTokens: 12_000, microcompact: { enabled: false }, autoCompact: { enabled: false }, collapse: { enabled: true, threshold: 0.7, keepRecentExchanges: 2 } };

  it('projects a summary over old exchanges, never touches the stored history, and reuses the store', async () => {
    const msgs = history('task', Array.from({ length: 10 }, () => [4_000]));
    const snapshot = JSON.stringify(msgs);
    const first = await run(msgs, settings);
    const ev = layer(first.events, 'collapse');
    expect(ev.fired).toBe(true);
    expect(ev.committed).toBe(false);
    expect(ev.changes).toEqual([expect.objectContaining({ kind: 'range_collapsed', from: 1, to: 16, isNew: true })]);
    expect(first.result.committed).toBeUndefined();
    expect(JSON.stringify(msgs)).toBe(snapshot);
    const projected = first.result.request.messages;
    expect(projected).toHaveLength(5);
    expect(JSON.stringify(projected[0])).toContain('[collapsed messages 1–16');
    expect(JSON.stringify(projected[0])).toMatch(/read src\/f\d+-0\.ts \(\d+ lines\)/);
    expect(checkTranscript(projected)).toEqual([]);
    expect(ev.tokensAfter).toBeLessThan(ev.tokensBefore / 2);

    // Next call: one more exchange appended; the same entry projects identically, so the request only appends.
    const more = [...msgs, ...exchange([100])];
    const second = await run(more, settings, { state: first.result.nextState });
    const ev2 = layer(second.events, 'collapse');
    expect(ev2.changes).toEqual([expect.objectContaining({ from: 1, to: 16, isNew: false })]);
    expect(cacheBreakDiff(first.result.request, second.result.request)).toBeNull();
  });

  it('drops an entry whose messages changed, and applies authored ranges', async () => {
    const msgs = history('task', Array.from({ length: 10 }, () => [4_000]));
    const first = await run(msgs, settings);
    const edited = [...msgs];
    edited[1] = { role: 'assistant', content: [{ type: 'text', text: 'different' }] };
    edited[2] = { role: 'user', content: 'ok' };
    const second = await run(edited, { ...settings, windowTokens: 10_000_000 }, { state: first.result.nextState });
    expect(layer(second.events, 'collapse').fired).toBe(false);
    expect(second.result.nextState.collapses).toEqual([]);

    const authored = await run(msgs, { ...settings, windowTokens: 10_000_000, collapse: { ranges: [{ from: 3, to: 6 }, { from: 2, to: 5 }] } });
    const ev = layer(authored.events, 'collapse');
    expect(ev.changes).toEqual([expect.objectContaining({ from: 3, to: 6 })]);
    expect(authored.result.request.messages).toHaveLength(msgs.length - 4);
  });
});

describe('auto-compact', () => {
  const settings: ContextSettingsInput = { windowTokens: 12_000, microcompact: { enabled: false }, collapse: { enabled: false } };

  it('at the threshold, replaces the history by the summary plus the last exchange verbatim', async () => {
    const msgs = history('Fix the login bug', Array.from({ length: 10 }, () => [4_000]));
    const { events, result } = await run(msgs, settings, { memory: '# CLAUDE.md\nuse tabs' });
    expect(layerEvents(events).map((e) => e.layer)).toEqual(['budget', 'snip', 'microcompact', 'collapse', 'auto_compact']);
    const ev = layer(events, 'auto_compact');
    expect(ev.fired).toBe(true);
    expect(ev.changes[0]).toMatchObject({ kind: 'history_summarised', removed: 19, kept: 2 });
    const out = result.committed!;
    expect(out).toHaveLength(3);
    expect(out.slice(1)).toEqual(msgs.slice(-2));
    expect(JSON.stringify(out[0])).toContain('Fix the login bug');
    expect(result.compaction).toMatchObject({ trigger: 'auto', messagesBefore: 21, messagesAfter: 3 });
    expect(result.nextState.compactions).toHaveLength(1);
    // The memory is still injected first, after compaction.
    const firstBlocks = result.request.messages[0]!.content as { type: string; text?: string }[];
    expect(firstBlocks[0]!.text).toContain('# CLAUDE.md');
    const assembled = events.find((e) => e.type === 'context.assembled');
    expect(assembled).toMatchObject({ threshold: { fraction: 0.85, tokens: 10_200 }, window: 12_000 });
    expect(checkTranscript(result.request.messages)).toEqual([]);
  });

  it('passes through events a generator summariser yields, and counts failures (circuit breaker)', async () => {
    const msgs = history('task', Array.from({ length: 10 }, () => [4_000]));
    const yielding: Summarize = async function* () {
      yield { type: 'transition', reason: 'next_turn', detail: 'PreCompact hook ran' } as const;
      return { ok: true as const, summary: 'short' };
    };
    const ok = await run(msgs, settings, { summarize: yielding });
    expect(ok.events.some((e) => e.type === 'transition')).toBe(true);

    const failing: Summarize = async () => ({ ok: false, error: 'model down' });
    let state = emptyContextState();
    for (let i = 0; i < 3; i++) {
      const r = await run(msgs, settings, { summarize: failing, state });
      expect(layer(r.events, 'auto_compact').reason).toContain('model down');
      state = r.result.nextState;
    }
    expect(state.autoCompactFailures).toBe(3);
    const stopped = await run(msgs, settings, { summarize: failing, state });
    expect(layer(stopped.events, 'auto_compact').reason).toMatch(/not trying again/);
  });

  it('reactive compact fires under the threshold, and reports when it cannot', async () => {
    const msgs = history('task', [[100], [100]]);
    const r = await drain(reactiveCompact({ messages: msgs, system: SYSTEM, tools, state: emptyContextState(), settings: BIG, summarize: deterministicSummarizer }));
    expect(r.result.compaction?.trigger).toBe('reactive');
    expect(r.result.committed).toHaveLength(3);
    const none = await drain(reactiveCompact({ messages: msgs, system: SYSTEM, tools, state: emptyContextState(), settings: BIG }));
    expect(none.result.compaction).toBeUndefined();
    expect(none.result.compactError).toMatch(/no summariser/);
  });

  it('the summary request has no tools, the nine sections, and clipped tool results', () => {
    const req = buildCompactRequest(history('task', [[50_000]]));
    const all = JSON.stringify(req);
    for (const s of COMPACT_SECTIONS) expect(all).toContain(s);
    expect(all).toContain('more chars');
    expect(all.length).toBeLessThan(10_000);
    expect(checkTranscript(req.messages)).toEqual([]);
  });
});
