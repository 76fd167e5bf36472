/**
 * Model-written collapse summaries on the live path: the loop over the real Anthropic SDK and the
 * local fake server. The summary request is a separate POST with no tools; the summary it writes
 * (here: from the findings its prompt carried) is what the next agent request holds; the call is a
 * cost-ledger line; an abort during it leaves a consistent log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAPSE_SYSTEM } from '../../src/harness/context/collapse-prompt.ts';
import { modelCollapseSummarizer } from '../../src/harness/context/collapse-model.ts';
import { costOfEvents } from '../../src/harness/cost/ledger.ts';
import { DEFAULT_PRICE_TABLE } from '../../src/harness/cost/prices.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer, type RecordedRequest } from '../fixtures/fake-anthropic-server.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

type Body = { system?: { text: string }[]; tools?: unknown[]; messages: { content: unknown }[] };
const isSummaryRequest = (r: RecordedRequest) => JSON.stringify((r.body as Body).system ?? '').includes(COLLAPSE_SYSTEM.slice(0, 40));

/** The agent's turns: two commands whose output holds a finding, then an answer. */
const AGENT: ScriptedTurn[] = [
  { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo "RATE_LIMIT = 4817"; seq 1 50' } }] },
  { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo second' } }] },
  { content: [{ type: 'text', text: 'The limit is 4817.' }] },
];

/** A model that writes the summary from its prompt: one sentence plus the findings it was asked to keep. */
function summaryFrom(req: RecordedRequest): ScriptedTurn {
  const prompt = JSON.stringify((req.body as Body).messages);
  const findings = JSON.parse(`"${/verbatim:\\n(.*?)"\}/.exec(prompt)?.[1] ?? ''}"`) as string;
  return { content: [{ type: 'text', text: `WRITTEN: ran a command that printed the rate limit.\n${findings}` }], usage: { input_tokens: 700, output_tokens: 30 } };
}

async function liveRun(onSummary: (req: RecordedRequest) => ScriptedTurn) {
  let agentTurn = 0;
  server.setTurns((req) => (isSummaryRequest(req) ? onSummary(req) : AGENT[agentTurn++]!));
  const s = await setup([], { input: { context: { collapse: { ranges: [{ from: 1, to: 2 }] } } } });
  const client = createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url });
  const deps = { ...s.deps, model: client, collapseSummarize: modelCollapseSummarizer(client, { model: 'claude-haiku-4-5' }) };
  const before = server.requests.length;
  const run = await drain(s.input, deps);
  const posts = server.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
  return { ...run, posts };
}

describe('collapse summaries written by the model, over the real SDK', () => {
  it('a separate no-tools request writes the summary; the next requests carry it, and it is priced', async () => {
    const { events, result, posts } = await liveRun(summaryFrom);
    expect(result.reason).toBe('completed');
    const summaries = posts.filter(isSummaryRequest);
    expect(summaries).toHaveLength(1);
    expect((summaries[0]!.body as Body).tools).toBeUndefined();
    expect(JSON.stringify((summaries[0]!.body as Body).messages)).toContain('RATE_LIMIT = 4817');
    // The agent requests after it hold the written summary (and the finding), not the collapsed output.
    const agent = posts.filter((r) => !isSummaryRequest(r));
    expect(agent).toHaveLength(3);
    for (const r of agent.slice(1)) {
      const text = JSON.stringify((r.body as Body).messages);
      expect(text).toContain('WRITTEN: ran a command');
      expect(text).toContain('RATE_LIMIT = 4817');
      expect(text).not.toContain('\\n49\\n50');
    }
    const calls = ofType(events, 'compaction.layer').flatMap((e) => e.summaryCalls ?? []);
    expect(calls).toEqual([{ from: 1, to: 2, model: 'claude-haiku-4-5', usage: expect.objectContaining({ input_tokens: 700, output_tokens: 30 }) }]);
    const cost = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(cost.sideCalls.map((c) => [c.kind, c.model, c.agentId])).toEqual([['collapse_summary', 'claude-haiku-4-5', 'main']]);
    expect(cost.sideCalls[0]!.cost.total).toBeGreaterThan(0);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('a failed summary call falls back to the deterministic summary and the run goes on', async () => {
    const { events, result, posts } = await liveRun(() => ({ fault: { kind: 'http', status: 400, errorType: 'invalid_request_error', message: 'nope' } }));
    expect(result.reason).toBe('completed');
    const collapse = ofType(events, 'compaction.layer').find((e) => e.summaryCalls)!;
    expect(collapse.summaryCalls![0]!.fallback).toMatch(/the summary call failed/);
    expect(collapse.reason).toMatch(/deterministic summary stands in/);
    const next = JSON.stringify((posts.filter((r) => !isSummaryRequest(r))[1]!.body as Body).messages);
    expect(next).toContain('ran `echo');
    expect(next).toContain('RATE_LIMIT = 4817');
  });

  it('an abort during the summary call ends the run aborted with a consistent log', async () => {
    const ac = new AbortController();
    let agentTurn = 0;
    server.setTurns((req) => {
      if (!isSummaryRequest(req)) return AGENT[agentTurn++]!;
      ac.abort();
      return { content: [{ type: 'text', text: 'never sent' }], fault: { kind: 'stall', afterEvents: 1 } };
    });
    const s = await setup([], { input: { signal: ac.signal, context: { collapse: { ranges: [{ from: 1, to: 2 }] } } } });
    const client = createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url });
    const { events, result } = await drain(s.input, { ...s.deps, model: client, collapseSummarize: modelCollapseSummarizer(client, { model: 'claude-haiku-4-5' }) });
    expect(result.reason).toBe('aborted');
    const calls = ofType(events, 'compaction.layer').flatMap((e) => e.summaryCalls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.fallback).toMatch(/aborted/);
    // The store keeps the deterministic summary; the history is whole and the log replays to it.
    expect(result.contextState.collapses[0]!.summary).toContain('ran `echo');
    expect(checkTranscript(result.messages)).toEqual([]);
    const replayed = replaySession(events);
    expect(replayed.messages).toEqual(result.messages);
    expect(replayed.lastReason).toBe('aborted');
    expect(ofType(events, 'run.end')).toHaveLength(1);
  });

  it('a run with a real client gets the model summariser; a scripted replay keeps the deterministic one', async () => {
    const scenario = findBuiltinScenario('fix-a-bug')!;
    const prep = (live: boolean) =>
      createJustBashSandbox().then((sandbox) =>
        prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, ...(live ? { model: createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url }), modelId: 'claude-test' } : {}) }),
      );
    expect((await prep(true)).deps.collapseSummarize).toBeTypeOf('function');
    const scripted = await prep(false);
    expect(scripted.deps.collapseSummarize).toBeUndefined();
    expect(scripted.deps.summarize).toBeTypeOf('function');
  });
});
