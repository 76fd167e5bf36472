import { describe, expect, it } from 'vitest';
import { barModel, shareText } from '../../src/ui/context/bar.ts';
import { describeChange } from '../../src/ui/context/changes.ts';
import type { AssembledEvent } from '../../src/ui/context/derive.ts';

const assembled = (over: Partial<AssembledEvent> = {}): AssembledEvent => ({
  type: 'context.assembled',
  seq: 1,
  ts: 0,
  agentId: 'main',
  turn: 1,
  parts: { system: 100, tools: 2_000, messages: 5_000, memory: 400 },
  total: 7_500,
  messageCount: 4,
  toolResults: [
    { toolUseId: 'a', messageIndex: 1, tokens: 3_000 },
    { toolUseId: 'b', messageIndex: 3, tokens: 1_000 },
  ],
  truthTotal: 12_000,
  window: 20_000,
  threshold: { fraction: 0.7, tokens: 14_000 },
  ...over,
});

describe('context bar geometry', () => {
  it('stacks the parts as shares of the window, tool results split out of the messages', () => {
    const m = barModel(assembled());
    expect(m.segments.map((s) => [s.part, s.tokens])).toEqual([
      ['system', 100],
      ['tools', 2_000],
      ['memory', 400],
      ['conversation', 1_000],
      ['results', 4_000],
    ]);
    expect(m.segments.find((s) => s.part === 'results')!.width).toBeCloseTo(20);
    expect(m.threshold!.left).toBeCloseTo(70);
    expect(m.liveWidth).toBeCloseTo(60);
    expect(shareText(7_500, m)).toBe('38%');
  });

  it('widens the scale when the request overshoots the window, so nothing draws past the end', () => {
    const m = barModel(assembled({ total: 25_000, truthTotal: 40_000 }));
    expect(m.scale).toBe(40_000);
    expect(m.liveWidth).toBe(100);
    expect(m.threshold!.left).toBeCloseTo(35);
    expect(m.segments.reduce((n, s) => n + s.width, 0)).toBeLessThanOrEqual(100);
  });

  it('describes what a layer removed or projected', () => {
    const ref = describeChange({ kind: 'tool_result_ref', toolUseId: 't1', toolName: 'bash', messageIndex: 2, chars: 12_345, preview: 'head…' });
    expect(ref.title).toBe('bash result → reference');
    expect(ref.meta).toEqual(['id t1', 'message 2', '12,345 chars kept in the store']);
    expect(describeChange({ kind: 'range_collapsed', from: 1, to: 4, summary: 'S', isNew: false }).meta[0]).toBe('messages 1–4');
    expect(describeChange({ kind: 'trims_deferred', toolUseIds: ['x', 'y'] }).title).toContain('2 trims deferred');
  });
});
