/**
 * Issue 23 §2: a collapse summary keeps findings — the values, locations, errors and decisions of
 * the collapsed outputs — not only the list of actions, so a later turn still has them once the
 * range leaves the request. Deterministic (no model call): same history, same summary, same cache.
 */
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message, TextBlock } from '../../src/harness/messages.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import { summarizeRange } from '../../src/harness/context/collapse-summary.ts';
import { findingsOf, isFinding } from '../../src/harness/context/findings.ts';
import { bigText, drain, exchange, SYSTEM, tools } from './context-fixtures.ts';

const VALUE = 'src/config.ts:14 RATE_LIMIT = 4817 (requests per minute)';
const BUG = 'error: refund double-counts the fee at src/payments/refund.ts:212';
const DECISION = 'Decision: keep the v2 ledger format; never migrate rows in place.';

/** A history whose early outputs hold a value and a bug, and whose early assistant text a decision. */
function planted(turns: number): Message[] {
  const out: Message[] = [{ role: 'user', content: 'Fix the refunds.' }];
  for (let i = 0; i < turns; i++) {
    const [a, u] = exchange([4_000], { idPrefix: `f${i}` });
    const extra = i === 1 ? VALUE : i === 2 ? BUG : null;
    const user: Message = extra ? { role: 'user', content: (u.content as ContentBlock[]).map((b) => (b.type === 'tool_result' ? { ...b, content: `${extra}\n${bigText(3_000, 'noise')}` } : b)) } : u;
    const assistant: Message = i === 3 ? { role: 'assistant', content: [{ type: 'text', text: DECISION }, ...(a.content as ContentBlock[]).filter((b) => b.type !== 'text')] } : a;
    out.push(assistant, user);
  }
  return out;
}

describe('collapse summaries keep findings', () => {
  it('the summary of a range carries its value, bug location and decision; the action list alone loses the outputs', () => {
    const h = planted(6);
    const with_ = summarizeRange(h, 1, h.length - 1);
    for (const fact of ['4817', 'refund.ts:212', 'v2 ledger']) expect(with_).toContain(fact);
    expect(with_).toContain('Findings:');
    // The action list quotes assistant text (the decision) but no output: the value and the bug are gone.
    const without = summarizeRange(h, 1, h.length - 1, { findings: false });
    for (const fact of ['4817', 'refund.ts:212']) expect(without).not.toContain(fact);
  });

  it('filler output yields no findings; a finding line is clipped and kept once', () => {
    expect(findingsOf(bigText(5_000, 'toolu_9'))).toEqual([]);
    expect(isFinding('src/a.ts:12 something')).toBe(true);
    expect(isFinding('the quick brown fox')).toBe(false);
    expect(findingsOf(`${BUG}\n${BUG}\nok`)).toEqual([BUG]);
    expect(findingsOf(`error ${'x'.repeat(400)}`)[0]!.length).toBeLessThanOrEqual(161);
  });

  it('after the pipeline collapses the range, the request still holds the facts (and not the outputs)', async () => {
    const h = planted(30);
    const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
    const run = (findings: boolean) =>
      drain(prepareContext({ messages: h, system, tools, model: 'm', state: emptyContextState(), settings: { windowTokens: 40_000, microcompact: { enabled: false }, autoCompact: { enabled: false }, collapse: { findings } } }));
    const { events, result } = await run(true);
    expect(events.some((e) => e.type === 'compaction.layer' && e.layer === 'collapse' && e.fired)).toBe(true);
    const text = JSON.stringify(result.request.messages);
    expect(text).not.toContain('noise: the quick brown fox');
    for (const fact of ['4817', 'refund.ts:212', 'v2 ledger']) expect(text).toContain(fact);
    const lost = JSON.stringify((await run(false)).result.request.messages);
    for (const fact of ['4817', 'refund.ts:212']) expect(lost).not.toContain(fact);
  });
});
