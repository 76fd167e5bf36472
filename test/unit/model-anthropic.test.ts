/**
 * The Anthropic client, with the real SDK, against the local fake Anthropic server over real HTTP.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/harness/messages.ts';
import type { ModelError, ModelStreamEvent } from '../../src/harness/ports.ts';
import { anthropicClientFromEnv, createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { ModelCallError } from '../../src/model/errors.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { estimateRequestTokens } from '../../src/model/scripted/to-events.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';

const KEY = 'sk-ant-test-SECRET-0123456789';

const request: ModelRequest = {
  model: 'claude-test-1',
  max_tokens: 1024,
  system: 'You are a test.',
  tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
  messages: [{ role: 'user', content: 'Say hello' }],
};

let server: FakeAnthropicServer;

beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function client() {
  return createAnthropicClient({ apiKey: KEY, baseURL: server.url, dangerouslyAllowBrowser: true });
}

async function collect(events: AsyncIterable<ModelStreamEvent>, onEvent?: (e: ModelStreamEvent, n: number) => void) {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) {
    out.push(e);
    onEvent?.(e, out.length);
  }
  return out;
}

async function play(turn: ScriptedTurn): Promise<ModelStreamEvent[]> {
  server.setTurns([turn]);
  return collect(client().stream(request, new AbortController().signal));
}

function lastError(events: ModelStreamEvent[]): ModelError {
  const last = events[events.length - 1];
  if (last?.type !== 'error') throw new Error(`expected the stream to end with an error, got ${JSON.stringify(last)}`);
  return last.error;
}

const textOf = (events: ModelStreamEvent[]) =>
  events.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('');

const jsonOf = (events: ModelStreamEvent[], index: number) =>
  events
    .map((e) => (e.type === 'content_block_delta' && e.index === index && e.delta.type === 'input_json_delta' ? e.delta.partial_json : ''))
    .join('');

describe('anthropic client: streaming', () => {
  it('streams text as several deltas and ends with message_stop', async () => {
    const text = 'Hello there, this reply arrives in a few small pieces over SSE.';
    const events = await play({ content: [{ type: 'text', text }] });
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(events.filter((e) => e.type === 'content_block_delta').length).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.filter((e) => e.type === 'content_block_delta').length).toBeGreaterThan(2);
    expect(textOf(events)).toBe(text);
    const delta = events.find((e) => e.type === 'message_delta');
    expect(delta).toMatchObject({ delta: { stop_reason: 'end_turn' } });
    expect(events.find((e) => e.type === 'message_start')).toMatchObject({ message: { id: 'msg_scripted_1', model: 'claude-test-1' } });
  });

  it('assembles tool input JSON streamed across several deltas', async () => {
    const input = { command: 'ls -la /home/project && cat README.md', description: 'List files' };
    const events = await play({ content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', name: 'bash', input }] });
    const start = events.find((e) => e.type === 'content_block_start' && e.index === 1);
    expect(start).toMatchObject({ content_block: { type: 'tool_use', id: 'toolu_scripted_1', name: 'bash', input: {} } });
    const pieces = events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta');
    expect(pieces.length).toBeGreaterThan(2);
    expect(JSON.parse(jsonOf(events, 1))).toEqual(input);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it("carries a refusal's stop_details (category and explanation) through the SDK", async () => {
    const events = await play({
      content: [{ type: 'text', text: 'I can' }],
      stop_reason: 'refusal',
      stop_details: { type: 'refusal', category: 'cyber', explanation: 'This looks like malware development.' },
    });
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', category: 'cyber', explanation: 'This looks like malware development.' } },
    });
    // A normal stop has none (the wire's stop_details: null is dropped).
    const plain = await play({ content: [{ type: 'text', text: 'hi' }] });
    expect(plain.find((e) => e.type === 'message_delta')).not.toHaveProperty('delta.stop_details');
  });

  it('streams thinking and its signature', async () => {
    const events = await play({ content: [{ type: 'thinking', thinking: 'Let me think about this carefully.' }, { type: 'text', text: 'Done.' }] });
    expect(events.find((e) => e.type === 'content_block_start')).toMatchObject({ index: 0, content_block: { type: 'thinking' } });
    const thinking = events
      .map((e) => (e.type === 'content_block_delta' && e.delta.type === 'thinking_delta' ? e.delta.thinking : ''))
      .join('');
    expect(thinking).toBe('Let me think about this carefully.');
    expect(events.some((e) => e.type === 'content_block_delta' && e.delta.type === 'signature_delta' && e.delta.signature.length > 0)).toBe(true);
  });

  it('reports usage from message_start and message_delta', async () => {
    const events = await play({
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 1234, output_tokens: 56, cache_read_input_tokens: 1000, cache_creation_input_tokens: 7 },
    });
    expect(events[0]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_scripted_1',
        model: 'claude-test-1',
        usage: { input_tokens: 1234, output_tokens: 1, cache_read_input_tokens: 1000, cache_creation_input_tokens: 7 },
      },
    });
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ usage: { output_tokens: 56 } });
  });

  it('sends the request the way TOOLCHAIN.md describes (Bearer key, version, browser header, no retries)', async () => {
    await play({ content: [{ type: 'text', text: 'hi' }] });
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    expect(posts).toHaveLength(1);
    const r = posts[0]!;
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['anthropic-version']).toBe('2026-10-21');
    expect(r.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(r.headers['x-stainless-retry-count']).toBe('0');
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.body).toMatchObject({
      model: 'claude-test-1',
      max_tokens: 1024,
      stream: true,
      system: 'You are a test.',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect((r.body as { tools: unknown[] }).tools).toHaveLength(1);
  });

  it('is also a faithful server for the SDK\'s own stream helper and non-streaming calls', async () => {
    server.setTurns([
      { content: [{ type: 'text', text: 'one two three four' }, { type: 'tool_use', id: 'toolu_given', name: 'bash', input: { command: 'pwd' } }] },
      { content: [{ type: 'text', text: 'plain json reply' }] },
    ]);
    const sdk = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const params = { model: 'claude-test-1', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };
    const streamed = await sdk.messages.stream(params).finalMessage();
    expect(streamed.content).toMatchObject([
      { type: 'text', text: 'one two three four' },
      { type: 'tool_use', id: 'toolu_given', name: 'bash', input: { command: 'pwd' } },
    ]);
    expect(streamed.stop_reason).toBe('tool_use');
    const plain = await sdk.messages.create(params);
    expect(plain.content).toMatchObject([{ type: 'text', text: 'plain json reply' }]);
    expect(plain.stop_reason).toBe('end_turn');
  });
});

describe('anthropic client: faults become ModelErrors', () => {
  it('429 with retry-after → rate_limit, retryable, retryAfterMs from the header', async () => {
    const events = await play({ fault: { kind: 'http', status: 429, retryAfterSeconds: 7 } });
    expect(events).toHaveLength(1);
    expect(lastError(events)).toMatchObject({ kind: 'rate_limit', status: 429, retryable: true, retryAfterMs: 7000 });
    expect(lastError(events).message).toContain('7 s');
  });

  it('529 → overloaded; 500 → server; both retryable', async () => {
    expect(lastError(await play({ fault: { kind: 'http', status: 529 } }))).toMatchObject({ kind: 'overloaded', retryable: true, status: 529 });
    expect(lastError(await play({ fault: { kind: 'http', status: 500 } }))).toMatchObject({ kind: 'server', retryable: true, status: 500 });
    expect(lastError(await play({ fault: { kind: 'http', status: 503 } }))).toMatchObject({ kind: 'server', retryable: true });
  });

  it('401 → authentication, not retryable, points to Settings, never shows the key', async () => {
    const keyed = await startFakeAnthropicServer({ turns: [{ content: [{ type: 'text', text: 'unreachable' }] }], requireApiKey: 'sk-ant-the-right-one' });
    try {
      const c = createAnthropicClient({ apiKey: KEY, baseURL: keyed.url, dangerouslyAllowBrowser: true });
      const err = lastError(await collect(c.stream(request, new AbortController().signal)));
      expect(err).toMatchObject({ kind: 'authentication', retryable: false, status: 401 });
      expect(err.message).toMatch(/Settings/);
      expect(err.message).not.toContain(KEY);
      expect(keyed.requests.filter((r) => r.method === 'POST')).toHaveLength(1); // no silent retries
    } finally {
      await keyed.close();
    }
  });

  it('a server that echoes the key in its error message gets it redacted', async () => {
    const events = await play({ fault: { kind: 'http', status: 401, message: `invalid key ${KEY} provided` } });
    const err = lastError(events);
    expect(err.message).not.toContain(KEY);
    expect(err.message).toContain('[redacted]');
  });

  it('400 "prompt is too long" and 413 → prompt_too_long; other 400 → invalid_request', async () => {
    expect(lastError(await play({ fault: { kind: 'http', status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } }))).toMatchObject({
      kind: 'prompt_too_long',
      retryable: false,
    });
    expect(lastError(await play({ fault: { kind: 'http', status: 413 } }))).toMatchObject({ kind: 'prompt_too_long' });
    expect(lastError(await play({ fault: { kind: 'http', status: 400, message: 'messages: roles must alternate' } }))).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
    });
  });

  it('404 → not_found naming the model id; 403 → permission', async () => {
    const nf = lastError(await play({ fault: { kind: 'http', status: 404, message: 'model: claude-test-1' } }));
    expect(nf).toMatchObject({ kind: 'not_found', retryable: false });
    expect(nf.message).toContain('"claude-test-1" was not found');
    expect(lastError(await play({ fault: { kind: 'http', status: 403 } }))).toMatchObject({ kind: 'permission', retryable: false });
  });

  it('a stream cut short (socket closed) → stream_cut after the events that did arrive', async () => {
    const events = await play({ content: [{ type: 'text', text: 'a b c d e f g h i j k l' }], fault: { kind: 'truncate', afterEvents: 4 } });
    expect(events.slice(0, -1).map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta']);
    expect(events.some((e) => e.type === 'message_stop')).toBe(false);
    expect(lastError(events)).toMatchObject({ kind: 'stream_cut', retryable: true });
  });

  it('an `error` event mid-stream → retryable stream_cut carrying the server\'s message', async () => {
    const events = await play({
      content: [{ type: 'text', text: 'a b c d e f' }],
      fault: { kind: 'stream_error', afterEvents: 3, errorType: 'overloaded_error', message: 'Overloaded right now' },
    });
    expect(events).toHaveLength(4);
    const err = lastError(events);
    expect(err).toMatchObject({ kind: 'stream_cut', retryable: true });
    expect(err.message).toContain('overloaded_error');
    expect(err.message).toContain('Overloaded right now');
  });

  it('no server listening → connection, retryable', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const c = createAnthropicClient({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}`, dangerouslyAllowBrowser: true });
    const err = lastError(await collect(c.stream(request, new AbortController().signal)));
    expect(err).toMatchObject({ kind: 'connection', retryable: true });
    expect(err.message).toContain(`127.0.0.1:${port}`);
    expect(err.message).not.toContain(KEY);
  });

  it('a script that ran out answers 400 → invalid_request with the reason', async () => {
    server.setTurns([]);
    const err = lastError(await collect(client().stream(request, new AbortController().signal)));
    expect(err).toMatchObject({ kind: 'invalid_request', retryable: false });
    expect(err.message).toContain('has no turn 1');
  });

  it('no API key → authentication error without any request', async () => {
    const c = createAnthropicClient({ apiKey: '', baseURL: server.url, dangerouslyAllowBrowser: true });
    const events = await collect(c.stream(request, new AbortController().signal));
    expect(lastError(events)).toMatchObject({ kind: 'authentication', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe('anthropic client: abort', () => {
  it('aborting while the stream waits on the network → aborted, and the connection is dropped', async () => {
    server.setTurns([{ content: [{ type: 'text', text: 'a b c d e f g h i j' }], fault: { kind: 'stall', afterEvents: 4 } }]);
    const ctl = new AbortController();
    const events = await collect(client().stream(request, ctl.signal), (_e, n) => {
      if (n === 4) ctl.abort();
    });
    expect(events).toHaveLength(5);
    expect(lastError(events)).toMatchObject({ kind: 'aborted', retryable: false });
    await server.clientDisconnects(1);
  });

  it('an already-aborted signal → aborted, no request sent', async () => {
    server.setTurns([{ content: [{ type: 'text', text: 'x' }] }]);
    const ctl = new AbortController();
    ctl.abort();
    const events = await collect(client().stream(request, ctl.signal));
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'aborted' }) }]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('anthropic client: countTokens and env', () => {
  it('countTokens calls /v1/messages/count_tokens', async () => {
    const n = await client().countTokens!(request);
    expect(n).toBe(estimateRequestTokens(request));
    const r = server.requests.find((x) => x.path === '/v1/messages/count_tokens');
    expect(r?.body).toMatchObject({ model: 'claude-test-1', system: 'You are a test.' });
    expect(r?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('countTokens rejects with a ModelCallError carrying the ModelError', async () => {
    const keyed = await startFakeAnthropicServer({ requireApiKey: 'sk-ant-other' });
    try {
      const c = createAnthropicClient({ apiKey: KEY, baseURL: keyed.url, dangerouslyAllowBrowser: true });
      const err = await c.countTokens!(request).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ModelCallError);
      expect((err as ModelCallError).error.kind).toBe('authentication');
      expect((err as ModelCallError).message).not.toContain(KEY);
    } finally {
      await keyed.close();
    }
  });

  it('anthropicClientFromEnv: null without a key; honours ANTHROPIC_BASE_URL', async () => {
    expect(anthropicClientFromEnv({})).toBeNull();
    expect(anthropicClientFromEnv({ ANTHROPIC_API_KEY: '  ' })).toBeNull();
    const c = anthropicClientFromEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    expect(c?.baseURL).toBe(server.url);
    server.setTurns([{ content: [{ type: 'text', text: 'from env' }] }]);
    const events = await collect(c!.stream(request, new AbortController().signal));
    expect(textOf(events)).toBe('from env');
    expect(anthropicClientFromEnv({ ANTHROPIC_API_KEY: KEY })?.baseURL).toBe('https://api.anthropic.com');
  });
});
