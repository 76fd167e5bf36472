/**
 * The loop driving the real Anthropic SDK against the local fake server: the whole path a live
 * session takes, with faults injected on the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

async function liveSetup(turns: Parameters<FakeAnthropicServer['setTurns']>[0]) {
  server.setTurns(turns);
  const s = await setup([]);
  const client = createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url });
  return { ...s, deps: { ...s.deps, model: client } };
}

describe('agentLoop over the real SDK and the fake Anthropic server', () => {
  it('streams text, runs a bash tool call and finishes', async () => {
    const { input, deps } = await liveSetup([
      { content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', name: 'bash', input: { command: 'echo live > live.txt && cat live.txt' } }] },
      { content: [{ type: 'text', text: 'Done: live.txt written.' }] },
    ]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    const text = ofType(events, 'model.delta').filter((d) => d.delta.kind === 'text');
    expect(text.length).toBeGreaterThan(1);
    expect(ofType(events, 'tool.result')[0]!.content).toContain('live');
    expect(await deps.sandbox.fs.readFile('/home/project/live.txt')).toBe('live\n');
    // The second request on the wire carries the tool result for the first call.
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    const body = posts.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages).toHaveLength(3);
    expect(JSON.stringify(body.messages[2])).toContain('tool_result');
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('honours retry-after on 429 and backs off on 529 before succeeding', async () => {
    const { input, deps, clock } = await liveSetup([
      { fault: { kind: 'http', status: 429, errorType: 'rate_limit_error', retryAfterSeconds: 3 } },
      { fault: { kind: 'http', status: 529, errorType: 'overloaded_error' } },
      { fault: { kind: 'stream_error', afterEvents: 3, errorType: 'overloaded_error', message: 'Overloaded' } },
      { content: [{ type: 'text', text: 'made it' }] },
    ]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'model.error').map((e) => e.error.kind)).toEqual(['rate_limit', 'overloaded', 'stream_cut']);
    expect(clock.sleeps).toEqual([3000, 1000, 2000]);
    expect(transitions(events)).toEqual(['model_retry', 'model_retry', 'model_retry', 'completed']);
    expect(blocksOf(result.messages.at(-1)!)).toEqual([{ type: 'text', text: 'made it' }]);
  });

  it('a truncated stream is retried, not mistaken for a whole reply', async () => {
    const { input, deps } = await liveSetup([
      { content: [{ type: 'text', text: 'partial partial partial' }], fault: { kind: 'truncate', afterEvents: 4 } },
      { content: [{ type: 'text', text: 'whole' }] },
    ]);
    const { events, result } = await drain(input, deps);
    expect(ofType(events, 'model.error')[0]!.error.kind).toBe('stream_cut');
    expect(blocksOf(result.messages.at(-1)!)).toEqual([{ type: 'text', text: 'whole' }]);
  });

  it('a 401 ends the run with a message that does not leak the key', async () => {
    const { input, deps } = await liveSetup([{ fault: { kind: 'http', status: 401, errorType: 'authentication_error' } }]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('model_error');
    expect(result.error?.kind).toBe('authentication');
    expect(JSON.stringify(events)).not.toContain('sk-test-dummy');
  });
});

describe('exact token counts', () => {
  it('asks count_tokens before each call and reports it beside the estimate', async () => {
    const { input, deps } = await liveSetup([{ content: [{ type: 'text', text: 'hi' }] }]);
    const { events } = await drain({ ...input, countTokens: true }, deps);
    const counted = ofType(events, 'context.counted');
    expect(counted).toHaveLength(1);
    expect(counted[0]!.actual).toBeGreaterThan(0);
    expect(counted[0]!.estimate).toBe(ofType(events, 'context.assembled')[0]!.total);
    expect(counted[0]!.difference).toBe(counted[0]!.estimate - counted[0]!.actual!);
    expect(server.requests.some((r) => r.path === '/v1/messages/count_tokens')).toBe(true);
    // the count comes before the request it describes
    const types = events.map((e) => e.type);
    expect(types.indexOf('context.counted')).toBeLessThan(types.indexOf('model.request'));
  });

  it('a failed count is reported and the run goes on', async () => {
    const { input, deps } = await liveSetup([{ content: [{ type: 'text', text: 'hi' }] }]);
    const failing = { ...deps.model, countTokens: async () => Promise.reject(new Error('count_tokens is not available here')) };
    const { events, result } = await drain({ ...input, countTokens: true }, { ...deps, model: failing });
    expect(ofType(events, 'context.counted')[0]).toMatchObject({ actual: null, error: 'count_tokens is not available here' });
    expect(result.reason).toBe('completed');
  });
});
