/**
 * Auto-compact's and `/compact`'s summary call over the real Anthropic SDK and the local fake
 * server, and in the headless runner: the usage the API reports for the summary request (input,
 * output, cache writes and reads) is what the `compact_summary` cost line prices, and
 * `-p --output-format json`'s `total_cost_usd` (and `modelUsage`) include it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACT_SYSTEM } from '../../src/harness/context/compact-prompt.ts';
import { costOfEvents } from '../../src/harness/cost/ledger.ts';
import { DEFAULT_PRICE_TABLE } from '../../src/harness/cost/prices.ts';
import type { Usage } from '../../src/harness/messages.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer, type RecordedRequest } from '../fixtures/fake-anthropic-server.ts';
import { runCliInProcess } from '../helpers/cli.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

type Body = { system?: { text: string }[]; tools?: unknown[]; messages: unknown[] };
const isCompactRequest = (r: RecordedRequest) => JSON.stringify((r.body as Body).system ?? '').includes(COMPACT_SYSTEM.slice(0, 40));

const SUMMARY_USAGE: Usage = { input_tokens: 7_000, output_tokens: 600, cache_creation_input_tokens: 1_500, cache_read_input_tokens: 3_000 };
const SUMMARY: ScriptedTurn = { content: [{ type: 'text', text: '## Primary Request and Intent\nread the file' }], usage: SUMMARY_USAGE };
/** Sonnet's row of the pricing page, per MTok: base input, 5-minute cache write, cache read, output. */
const SONNET = { input: 3, write: 3.75, read: 0.3, output: 15 };
const dollars = (u: Usage) => (u.input_tokens * SONNET.input + u.cache_creation_input_tokens * SONNET.write + u.cache_read_input_tokens * SONNET.read + u.output_tokens * SONNET.output) / 1e6;

const HISTORY = Array.from({ length: 6 }, (_, i) => [
  { role: 'user' as const, content: `question ${i} ${'q'.repeat(2000)}` },
  { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i} ${'a'.repeat(2000)}` }] },
]).flat();

async function liveLoop(prompt: string, context = {}) {
  server.setTurns((req) => (isCompactRequest(req) ? SUMMARY : { content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 800, output_tokens: 4 } }));
  const before = server.requests.length;
  const s = await setup([], { input: { model: 'claude-sonnet-5-5', messages: [...HISTORY, { role: 'user', content: prompt }], context } });
  const run = await drain(s.input, { ...s.deps, model: createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url }) });
  const posts = server.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
  return { ...run, posts };
}

describe('the compact summary call over the real SDK', () => {
  it('auto-compact: a separate no-tools request; its reported usage is the compact_summary line, priced column by column', async () => {
    const { events, result, posts } = await liveLoop('and now?', { windowTokens: 10_000, autoCompactThreshold: 0.5, collapse: { enabled: false } });
    expect(result.reason).toBe('completed');
    expect(posts.map(isCompactRequest)).toEqual([true, false]);
    expect((posts[0]!.body as Body).tools).toBeUndefined();
    const calls = ofType(events, 'compaction.layer').flatMap((e) => (e.layer === 'auto_compact' ? (e.summaryCalls ?? []) : []));
    expect(calls).toEqual([{ from: 0, to: HISTORY.length - 2, model: 'claude-sonnet-5-5', usage: SUMMARY_USAGE }]);
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls.map((c) => [c.kind, c.model, c.row])).toEqual([['compact_summary', 'claude-sonnet-5-5', 'sonnet']]);
    expect(report.sideCalls[0]!.cost.total).toBeCloseTo(dollars(SUMMARY_USAGE), 12);
    expect(report.totalUsd).toBeCloseTo(dollars(SUMMARY_USAGE) + report.requests[0]!.cost.total, 12);
  });

  it('/compact: the one request is the summary; the run costs exactly it', async () => {
    const { events, result, posts } = await liveLoop('/compact keep the answers');
    expect(result.reason).toBe('completed');
    expect(posts.map(isCompactRequest)).toEqual([true]);
    expect(JSON.stringify((posts[0]!.body as Body).messages)).toContain('keep the answers');
    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.requests).toEqual([]);
    expect(report.sideCalls.map((c) => c.kind)).toEqual(['compact_summary']);
    expect(report.totalUsd).toBeCloseTo(dollars(SUMMARY_USAGE), 12);
  });
});

describe('headless: total_cost_usd includes the compact summary', { timeout: 120_000 }, () => {
  it('-p --output-format json / stream-json: an auto-compact mid-run is in total_cost_usd, modelUsage and cost.side_calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-compact-cost-'));
    // ~10k tokens of tool result: the second request (~13k) crosses the line at 50 % of a 20k window; the first (~3k) does not.
    writeFileSync(join(dir, 'big.txt'), 'line of text\n'.repeat(2000));
    const read: ScriptedTurn = { content: [{ type: 'tool_use', name: 'read', input: { file_path: 'big.txt' } }], usage: { input_tokens: 3_000, output_tokens: 20 } };
    const answer: ScriptedTurn = { content: [{ type: 'text', text: 'It is lines of text.' }], usage: { input_tokens: 2_500, output_tokens: 8, cache_read_input_tokens: 400 } };
    let agent = 0;
    server.setTurns((req) => (isCompactRequest(req) ? SUMMARY : [read, answer][agent++]!));
    const before = server.requests.length;
    const env = { ANTHROPIC_API_KEY: 'sk-test-dummy', ANTHROPIC_BASE_URL: server.url, HARNESS_PLAYGROUND_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'hp-compact-cfg-')) };
    const args = (format: string) => ['--dir', dir, '-p', 'what is in big.txt?', '--output-format', format, '--context-window', '20000', '--autocompact-threshold', '0.5', '--context-settings', '{"collapse":{"enabled":false}}'];
    const r = await runCliInProcess(args('json'), env);
    expect(r.code).toBe(0);
    const posts = server.requests.slice(before).filter((q) => q.method === 'POST');
    expect(posts.map(isCompactRequest)).toEqual([false, true, false]);
    const o = JSON.parse(r.stdout) as {
      result: string;
      total_cost_usd: number;
      modelUsage: Record<string, { inputTokens: number; outputTokens: number; costUSD: number }>;
      cost: { side_calls: { kind: string; model: string; usd: number }[] };
    };
    expect(o.result).toBe('It is lines of text.');
    const expected = dollars(SUMMARY_USAGE) + dollars({ ...read.usage!, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } as Usage) + dollars({ ...answer.usage!, cache_creation_input_tokens: 0 } as Usage);
    expect(o.total_cost_usd).toBeCloseTo(expected, 7);
    expect(o.cost.side_calls).toEqual([{ kind: 'compact_summary', model: expect.stringMatching(/sonnet/), agent_id: 'main', usd: expect.closeTo(dollars(SUMMARY_USAGE), 7) }]);
    // modelUsage covers every call of the model, the summary's included, and adds up to the total.
    const models = Object.values(o.modelUsage);
    expect(models.reduce((t, m) => t + m.costUSD, 0)).toBeCloseTo(o.total_cost_usd, 7);
    expect(models.reduce((t, m) => t + m.outputTokens, 0)).toBe(20 + 8 + 600);
    // stream-json's result line carries the same total.
    agent = 0;
    const streamed = await runCliInProcess(args('stream-json'), env);
    const last = JSON.parse(streamed.stdout.trim().split('\n').at(-1)!) as { type: string; total_cost_usd: number };
    expect(last.type).toBe('result');
    expect(last.total_cost_usd).toBeCloseTo(expected, 7);
  });
});
