/**
 * Issue 23 §2: collapse summaries written by a model (`collapse.summarizer: 'model'`, live runs),
 * with the findings in the prompt and kept, the deterministic summary as the fallback (failure,
 * empty, oversized, abort: said in the event), and the call priced as its own cost-ledger line.
 */
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message, TextBlock } from '../../src/harness/messages.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import { modelCollapseSummarizer } from '../../src/harness/context/collapse-model.ts';
import { COLLAPSE_SYSTEM, keepFindings } from '../../src/harness/context/collapse-prompt.ts';
import { costOfEvents } from '../../src/harness/cost/ledger.ts';
import { DEFAULT_PRICE_TABLE } from '../../src/harness/cost/prices.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { summarize } from '../../src/ui/events/summary.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { bigText, drain, exchange, layer, SYSTEM, tools } from './context-fixtures.ts';

const VALUE = 'src/config.ts:14 RATE_LIMIT = 4817 (requests per minute)';
const BUG = 'error: refund double-counts the fee at src/payments/refund.ts:212';
const WRITTEN = 'Read the config and the refund code; the refund module needs a fix.';

/** A history whose early outputs hold a value and a bug. */
function planted(turns: number): Message[] {
  const out: Message[] = [{ role: 'user', content: 'Fix the refunds.' }];
  for (let i = 0; i < turns; i++) {
    const [a, u] = exchange([4_000], { idPrefix: `m${i}` });
    const extra = i === 1 ? VALUE : i === 2 ? BUG : null;
    out.push(a, extra ? { role: 'user', content: (u.content as ContentBlock[]).map((b) => (b.type === 'tool_result' ? { ...b, content: `${extra}\n${bigText(3_000, 'noise')}` } : b)) } : u);
  }
  return out;
}

const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
const settings = (extra: object = {}) => ({ windowTokens: 40_000, microcompact: { enabled: false }, autoCompact: { enabled: false }, ...extra });

async function collapseWith(turns: ScriptedTurn[], opts: { settings?: object; signal?: AbortSignal } = {}) {
  const client = createScriptedClient(turns);
  const messages = planted(30);
  const run = await drain(
    prepareContext({
      messages,
      system,
      tools,
      model: 'm',
      state: emptyContextState(),
      settings: settings(opts.settings),
      collapseSummarize: modelCollapseSummarizer(client, { model: 'claude-haiku-4-5' }),
      ...(opts.signal ? { signal: opts.signal } : {}),
    }),
  );
  return { ...run, messages, client, collapse: layer(run.events, 'collapse'), text: JSON.stringify(run.result.request.messages) };
}

describe('model-written collapse summaries', () => {
  it('a separate no-tools call writes the summary; it stands in the request and the store, the findings kept', async () => {
    const { client, collapse, text, result, messages } = await collapseWith([{ content: [{ type: 'text', text: WRITTEN }], usage: { input_tokens: 9_000, output_tokens: 40 } }]);
    expect(client.requests).toHaveLength(1);
    const req = client.requests[0]!;
    expect(req.tools ?? []).toEqual([]);
    expect(JSON.stringify(req.system)).toContain(COLLAPSE_SYSTEM);
    // The findings are in the prompt…
    const prompt = JSON.stringify(req.messages);
    expect(prompt).toContain('RATE_LIMIT = 4817');
    expect(prompt).toContain('refund.ts:212');
    // …and the reply did not copy them: they are appended, so the request still holds them.
    expect(text).toContain(WRITTEN);
    for (const fact of ['4817', 'refund.ts:212']) expect(text).toContain(fact);
    expect(text).not.toContain('noise: the quick brown fox');
    expect(result.nextState.collapses[0]!.summary).toContain(WRITTEN);
    expect(collapse.summaryCalls).toEqual([{ from: 1, to: expect.any(Number), model: 'claude-haiku-4-5', usage: expect.objectContaining({ input_tokens: 9_000, output_tokens: 40 }) }]);
    expect(collapse.reason).toContain('written by claude-haiku-4-5');
    expect(summarize({ ...collapse, seq: 1, ts: 0, agentId: 'main', turn: 1 } as TraceEvent)).toMatch(/collapse fired · .* · summary by claude-haiku-4-5$/);
    // The next call re-projects the stored summary: no second summary call.
    const again = await drain(prepareContext({ messages, system, tools, model: 'm', state: result.nextState, settings: settings(), collapseSummarize: modelCollapseSummarizer(client, { model: 'x' }) }));
    expect(client.requests).toHaveLength(1);
    expect(JSON.stringify(again.result.request.messages)).toContain(WRITTEN);
  });

  it('a failed call leaves the deterministic summary, and the event says why', async () => {
    const { collapse, text } = await collapseWith([{ fault: { kind: 'http', status: 500, errorType: 'api_error', message: 'boom' } }]);
    expect(collapse.summaryCalls).toHaveLength(1);
    expect(collapse.summaryCalls![0]!.fallback).toMatch(/the summary call failed/);
    expect(collapse.reason).toMatch(/deterministic summary stands in/);
    expect(summarize({ ...collapse, seq: 1, ts: 0, agentId: 'main', turn: 1 } as TraceEvent)).toContain('1 model summary failed: deterministic');
    expect(text).toContain('Findings:');
    expect(text).toContain('4817');
  });

  it('an empty or oversized reply falls back too', async () => {
    const empty = await collapseWith([{ content: [{ type: 'text', text: '   ' }] }]);
    expect(empty.collapse.summaryCalls![0]!.fallback).toBe('the model returned an empty summary');
    const cut = await collapseWith([{ content: [{ type: 'text', text: 'a long story' }], stop_reason: 'max_tokens' }]);
    expect(cut.collapse.summaryCalls![0]!.fallback).toMatch(/oversized: the reply reached max_tokens/);
    const huge = await collapseWith([{ content: [{ type: 'text', text: bigText(200_000, 'chatty') }] }]);
    expect(huge.collapse.summaryCalls![0]!.fallback).toMatch(/^oversized: \d+ tokens for a range of \d+/);
    for (const r of [empty, cut, huge]) expect(r.text).toContain('Findings:');
  });

  it('an aborted run makes no call and keeps the deterministic summary', async () => {
    const ac = new AbortController();
    ac.abort();
    const { client, collapse, text } = await collapseWith([{ content: [{ type: 'text', text: WRITTEN }] }], { signal: ac.signal });
    expect(client.requests).toHaveLength(0);
    expect(collapse.summaryCalls![0]!.fallback).toMatch(/aborted/);
    expect(collapse.summaryCalls![0]!.usage).toBeNull();
    expect(text).not.toContain(WRITTEN);
  });

  it('collapse.summarizer: deterministic never calls the model', async () => {
    const { client, collapse } = await collapseWith([{ content: [{ type: 'text', text: WRITTEN }] }], { settings: { collapse: { summarizer: 'deterministic' } } });
    expect(client.requests).toHaveLength(0);
    expect(collapse.fired).toBe(true);
    expect(collapse.summaryCalls).toBeUndefined();
  });

  it('the call is priced as its own collapse_summary line, in its agent total', async () => {
    const { collapse } = await collapseWith([{ content: [{ type: 'text', text: WRITTEN }], usage: { input_tokens: 1_000_000, output_tokens: 0 } }]);
    const events = [
      { type: 'run.start', agentId: 'main', seq: 1, turn: 0, model: 'claude-sonnet-4-5' },
      { ...collapse, agentId: 'main', seq: 2, turn: 1 },
    ] as unknown as TraceEvent[];
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls).toHaveLength(1);
    expect(report.sideCalls[0]).toMatchObject({ kind: 'collapse_summary', model: 'claude-haiku-4-5', agentId: 'main' });
    expect(report.sideCalls[0]!.cost.input).toBeGreaterThan(0);
    expect(report.totalUsd).toBeCloseTo(report.sideCalls[0]!.cost.total);
  });

  it('keepFindings appends only the findings the summary does not already hold', () => {
    const findings = [`- read src/config.ts: ${VALUE}`, `- read src/refund.ts: ${BUG}`];
    expect(keepFindings(`Found ${VALUE}.`, findings)).toEqual({ summary: `Found ${VALUE}.\nFindings (kept verbatim):\n${findings[1]}`, appended: 1 });
    expect(keepFindings(`${VALUE} and ${BUG}`, findings).appended).toBe(0);
  });
});
