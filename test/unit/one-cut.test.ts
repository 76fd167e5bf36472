/**
 * Large output: one cut, one honest note (issue 10 §3, issue 8 §3). Output may pass several caps
 * (sandbox per stream, bash over both streams, the tool runner, the budget layer); the model must
 * still be told the true size of what was cut, and the budget layer honours each tool's own cap.
 */
import { describe, expect, it } from 'vitest';
import { originalLength, truncateHeadTail } from '../../src/harness/util/truncate.ts';
import { capFor } from '../../src/harness/context/layer-budget.ts';
import { DEFAULT_CONTEXT_SETTINGS } from '../../src/harness/context/settings.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import type { Message } from '../../src/harness/messages.ts';
import { bashTool } from '../../src/harness/tools/index.ts';
import { drain, layer, SYSTEM, tools } from './context-fixtures.ts';
import { toolsFixture } from './tools-fixture.ts';

const notes = (t: string) => t.match(/characters cut from the middle; [\d,]+ in all/g) ?? [];

describe('truncateHeadTail cuts once, honestly', () => {
  it('a second cut states the size of the true original, not of the first cut', () => {
    const original = 'a'.repeat(100_000) + 'END';
    const once = truncateHeadTail(original, 30_000).text;
    expect(originalLength(once)).toBe(original.length);
    const twice = truncateHeadTail(once, 10_000);
    expect(twice.text).toContain(`in all`);
    expect(originalLength(twice.text)).toBe(original.length);
    expect(notes(twice.text).at(-1)).toContain(`${original.length.toLocaleString('en-US')} in all`);
    expect(twice.text.endsWith('END')).toBe(true);
  });

  it('never splits an earlier note in two', () => {
    const once = truncateHeadTail('x'.repeat(50_000), 1_000).text; // the note sits at 600
    for (const max of [620, 640, 660, 700]) {
      const t = truncateHeadTail(once + 'y'.repeat(2_000), max).text;
      // Every "[… in all]" that appears is whole.
      expect((t.match(/\[/g) ?? []).length).toBe(notes(t).length);
      expect(originalLength(t)).toBe(52_000);
    }
  });
});

describe('bash: one note with the true size', () => {
  it('a large stdout reaches the model cut once, with a note giving its real size', async () => {
    const f = await toolsFixture();
    let expected = 0;
    for (let i = 1; i <= 50_000; i++) expected += `${i}\n`.length;
    const text = await f.ok('bash', { command: 'seq 1 50000' });
    expect(notes(text)).toHaveLength(1);
    expect(text).toContain(`${expected.toLocaleString('en-US')} in all`);
    // The stream's trailing newline is not part of what the model sees.
    expect(originalLength(text)).toBe(expected - 1);
    expect(text.length).toBeLessThanOrEqual(bashTool().maxResultChars);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.endsWith('50000')).toBe(true);
  });

  it('both streams over the cap: one more cut, and its note still names the true total', async () => {
    const f = await toolsFixture();
    const text = await f.ok('bash', { command: 'seq 1 50000; seq 1 50000 >&2' });
    const total = originalLength(text);
    expect(total).toBeGreaterThan(2 * 280_000);
    expect(text).toContain(`${total.toLocaleString('en-US')} in all`);
  });
});

describe('the budget layer respects per-tool caps', () => {
  it('a tool’s own maxResultChars is its cap (not the smaller default)', () => {
    expect(capFor('bash', DEFAULT_CONTEXT_SETTINGS, { bash: 31_000 })).toBe(31_000);
    expect(capFor('read', DEFAULT_CONTEXT_SETTINGS, { read: 101_000 })).toBe(101_000);
    expect(capFor('other', DEFAULT_CONTEXT_SETTINGS, {})).toBe(30_000);
    expect(capFor('bash', { ...DEFAULT_CONTEXT_SETTINGS, budget: { ...DEFAULT_CONTEXT_SETTINGS.budget, perTool: { bash: 5_000 } } }, { bash: 31_000 })).toBe(5_000);
  });

  async function budgetOn(content: string, perTool: Record<string, number> = {}) {
    const messages: Message[] = [
      { role: 'user', content: 'task' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'big' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content }] },
    ];
    return drain(
      prepareContext({
        messages,
        system: SYSTEM,
        tools,
        state: emptyContextState(),
        toolCaps: { bash: bashTool().maxResultChars },
        settings: { windowTokens: 10_000_000, microcompact: { enabled: false }, collapse: { enabled: false }, autoCompact: { enabled: false }, budget: { perTool } },
      }),
    );
  }

  it('bash output the tool already cut is not cut again, so its note reaches the model', async () => {
    const cut = truncateHeadTail('z'.repeat(1_000_000), 30_000).text;
    const { events, result } = await budgetOn(`Exit code 1\n${cut}`);
    expect(layer(events, 'budget').fired).toBe(false);
    expect(JSON.stringify(result.request.messages)).toContain('1,000,000 in all');
  });

  it('when a lower perTool cap does reference it, the reference says the true original size', async () => {
    const cut = truncateHeadTail('z'.repeat(1_000_000), 30_000).text;
    const { events, result } = await budgetOn(cut, { bash: 10_000 });
    expect(layer(events, 'budget').fired).toBe(true);
    const sent = JSON.stringify(result.committed);
    expect(sent).toContain('cut by the tool from 1,000,000 chars of output');
  });
});
