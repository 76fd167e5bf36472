/**
 * The context pipeline's per-turn memos (issue 23 §3: the fixed cost of a turn) give exactly what
 * computing afresh gives: settings parsed once per input, the prefix key once per tool list, and
 * the hash of a copy with a cache marker placed or removed taken from its original.
 */
import { describe, expect, it } from 'vitest';
import type { TextBlock, ToolSchema } from '../../src/harness/messages.ts';
import { contextSettingsSchema, parseContextSettings } from '../../src/harness/context/settings.ts';
import { hashesLike, linearize, prefixKeyOf } from '../../src/harness/context/prefix.ts';
import { hash53 } from '../../src/harness/context/hash.ts';
import { blockTokens } from '../../src/harness/context/tokens.ts';
import { placeBreakpoints } from '../../src/harness/context/cache.ts';
import { history, SYSTEM, tools } from './context-fixtures.ts';

/** The key as the pipeline computed it before the memo. */
const freshKey = (model: string, list: readonly ToolSchema[], system: readonly TextBlock[]) =>
  hash53(JSON.stringify([model, list.map((t) => [t.name, t.description, t.input_schema]), system.map((b) => b.text)])).toString(36);

describe('context memos', () => {
  it('parseContextSettings: the same result as zod, a fresh object per call, bad input still refused', () => {
    const input = { windowTokens: 100_000, microcompact: { keepRecent: 4 }, budget: { perTool: { bash: 500 } } };
    const a = parseContextSettings(input);
    expect(a).toEqual(contextSettingsSchema.parse(input));
    a.budget.perTool.bash = 1;
    a.microcompact.keepRecent = 99;
    const b = parseContextSettings(input);
    expect(b).not.toBe(a);
    expect(b.budget.perTool.bash).toBe(500);
    expect(b.microcompact.keepRecent).toBe(4);
    expect(parseContextSettings({ ...input, windowTokens: 50_000 }).windowTokens).toBe(50_000);
    for (let i = 0; i < 2; i++) expect(() => parseContextSettings({ windowTokens: -1 })).toThrow(/windowTokens/);
  });

  it('prefixKeyOf: the fresh key, and a new one when a tool, the system text or the model changes', () => {
    const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
    const list = [...tools];
    expect(prefixKeyOf(list, list, 'm', system, false, 0)).toBe(freshKey('m', list, system));
    expect(prefixKeyOf(list, list, 'm', system, false, 0)).toBe(freshKey('m', list, system));
    expect(prefixKeyOf(list, list, 'm2', system, false, 0)).toBe(freshKey('m2', list, system));
    const otherSystem: TextBlock[] = [{ type: 'text', text: `${SYSTEM} more` }];
    expect(prefixKeyOf(list, list, 'm', otherSystem, false, 0)).toBe(freshKey('m', list, otherSystem));
    // The same array with a tool replaced in place.
    list[0] = { ...list[0]!, description: 'changed' };
    expect(prefixKeyOf(list, list, 'm', system, false, 0)).toBe(freshKey('m', list, system));
    expect(freshKey('m', list, system)).not.toBe(freshKey('m', tools, system));
  });

  it('hashesLike: requests with breakpoints placed on copies linearise as if every item were hashed afresh', () => {
    const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
    const messages = history('task', [[100], [100, 100], []]);
    const placed = { model: 'm', ...placeBreakpoints({ system, tools, messages }) };
    // A deep copy: no object shared with the memo, so every hash is computed from the JSON.
    const copy = JSON.parse(JSON.stringify(placed)) as typeof placed;
    expect(linearize(placed).map((i) => i.hash)).toEqual(linearize(copy).map((i) => i.hash));
    const b: TextBlock = { type: 'text', text: 'x'.repeat(50) };
    const marked = hashesLike<TextBlock>({ ...b, cache_control: { type: 'ephemeral' } }, b);
    expect(blockTokens(marked)).toBe(blockTokens(b));
    expect(linearize({ messages: [{ role: 'user', content: [marked] }] })[1]!.hash).toBe(linearize({ messages: [{ role: 'user', content: [{ ...b }] }] })[1]!.hash);
  });
});
