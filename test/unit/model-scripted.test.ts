/**
 * The scripted model client, and its agreement with the fake Anthropic server (played through
 * the real Anthropic client) on the same turns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/harness/clock.ts';
import type { ModelRequest } from '../../src/harness/messages.ts';
import type { ModelClient, ModelError, ModelStreamEvent } from '../../src/harness/ports.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { chunkJson, chunkText, estimateRequestTokens } from '../../src/model/scripted/to-events.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';

const request: ModelRequest = {
  model: 'claude-scripted',
  max_tokens: 512,
  system: 'system prompt',
  messages: [{ role: 'user', content: 'Please list the files' }],
};

const never = () => new AbortController().signal;

async function collect(events: AsyncIterable<ModelStreamEvent>, onEvent?: (e: ModelStreamEvent, n: number) => void) {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) {
    out.push(e);
    onEvent?.(e, out.length);
  }
  return out;
}

function lastError(events: ModelStreamEvent[]): ModelError {
  const last = events[events.length - 1];
  if (last?.type !== 'error') throw new Error(`expected an error at the end, got ${JSON.stringify(last)}`);
  return last.error;
}

const deltas = (events: ModelStreamEvent[], kind: string) =>
  events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === kind ? [e.delta] : []));

const joined = (events: ModelStreamEvent[], index: number) =>
  events
    .map((e) => {
      if (e.type !== 'content_block_delta' || e.index !== index) return '';
      const d = e.delta;
      return d.type === 'text_delta' ? d.text : d.type === 'input_json_delta' ? d.partial_json : d.type === 'thinking_delta' ? d.thinking : '';
    })
    .join('');

/** Checks the event grammar of ports.ts: start → blocks → delta → stop, with pings anywhere. */
function expectWellFormed(events: ModelStreamEvent[]): void {
  const types = events.filter((e) => e.type !== 'ping');
  expect(types[0]?.type).toBe('message_start');
  expect(types[types.length - 1]?.type).toBe('message_stop');
  expect(types[types.length - 2]?.type).toBe('message_delta');
  const open = new Set<number>();
  for (const e of types.slice(1, -2)) {
    if (e.type === 'content_block_start') open.add(e.index);
    else if (e.type === 'content_block_delta') expect(open.has(e.index)).toBe(true);
    else if (e.type === 'content_block_stop') {
      expect(open.has(e.index)).toBe(true);
      open.delete(e.index);
    } else throw new Error(`unexpected ${e.type} inside the message`);
  }
  expect(open.size).toBe(0);
}

describe('chunking helpers', () => {
  it('chunkText splits into groups of a few words and loses nothing', () => {
    const text = '  Leading space, then   several words\nacross two lines. ';
    const chunks = chunkText(text);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBe(3); // 8 words, 3 per chunk
    expect(chunkText('')).toEqual([]);
    expect(chunkText('   ')).toEqual(['   ']);
  });

  it('chunkJson splits into several pieces without splitting a surrogate pair', () => {
    const json = JSON.stringify({ text: 'ab😀 lands on the first piece boundary, then more input' });
    const pieces = chunkJson(json);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe(json);
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    for (const p of pieces) expect(loneSurrogate.test(p)).toBe(false);
  });
});

describe('scripted client', () => {
  it('streams text in chunks of a few words, well-formed, ending end_turn', async () => {
    const text = 'one two three four five six seven eight nine ten';
    const events = await collect(createScriptedClient([{ content: [{ type: 'text', text }] }]).stream(request, never()));
    expectWellFormed(events);
    expect(deltas(events, 'text_delta').map((d) => (d as { text: string }).text)).toEqual(['one two three ', 'four five six ', 'seven eight nine ', 'ten']);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'end_turn' } });
    expect(events.filter((e) => e.type === 'ping')).toHaveLength(1);
  });

  it('streams tool input JSON in several input_json_delta pieces; stop_reason tool_use', async () => {
    const input = { command: 'find . -name "*.ts" | head -20', description: 'Find TypeScript files' };
    const events = await collect(
      createScriptedClient([{ content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_use', name: 'bash', input }] }]).stream(request, never()),
    );
    expectWellFormed(events);
    expect(deltas(events, 'input_json_delta').length).toBeGreaterThan(2);
    expect(JSON.parse(joined(events, 1))).toEqual(input);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('tool_use_raw streams its partial_json verbatim, even when it is not valid JSON', async () => {
    const raw = '{"command": "ls -la", "description": "unterminated';
    const events = await collect(createScriptedClient([{ content: [{ type: 'tool_use_raw', name: 'bash', partial_json: raw }] }]).stream(request, never()));
    expect(joined(events, 0)).toBe(raw);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('thinking streams as thinking_delta then a signature', async () => {
    const events = await collect(
      createScriptedClient([{ content: [{ type: 'thinking', thinking: 'I should check the files first.' }, { type: 'text', text: 'ok' }] }]).stream(request, never()),
    );
    expectWellFormed(events);
    expect(joined(events, 0)).toBe('I should check the files first.');
    const sig = deltas(events, 'signature_delta');
    expect(sig).toHaveLength(1);
    const last0 = events.filter((e) => e.type === 'content_block_delta' && e.index === 0).pop();
    expect(last0).toMatchObject({ delta: { type: 'signature_delta' } });
  });

  it('honours an explicit stop_reason', async () => {
    const events = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'cut off mid' }], stop_reason: 'max_tokens' }]).stream(request, never()));
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'max_tokens' } });
  });

  it('uses given tool ids, else toolu_scripted_<n>, deterministically across turns and clients', async () => {
    const script: ScriptedTurn[] = [
      { content: [{ type: 'tool_use', name: 'read', input: { path: 'a' } }, { type: 'tool_use', id: 'toolu_mine', name: 'read', input: { path: 'b' } }] },
      { content: [{ type: 'tool_use_raw', name: 'read', partial_json: '{}' }] },
    ];
    const ids = async () => {
      const c = createScriptedClient(script);
      const all = [...(await collect(c.stream(request, never()))), ...(await collect(c.stream(request, never())))];
      return all.flatMap((e) => (e.type === 'content_block_start' && e.content_block.type === 'tool_use' ? [e.content_block.id] : []));
    };
    expect(await ids()).toEqual(['toolu_scripted_1', 'toolu_mine', 'toolu_scripted_2']);
    expect(await ids()).toEqual(['toolu_scripted_1', 'toolu_mine', 'toolu_scripted_2']);
  });

  it('estimates usage from the request and reply sizes unless the script gives it', async () => {
    const small = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'x'.repeat(400) }] }]).stream(request, never()));
    const start = small[0];
    expect(start).toMatchObject({ type: 'message_start', message: { usage: { input_tokens: estimateRequestTokens(request) } } });
    expect(small.find((e) => e.type === 'message_delta')).toMatchObject({ usage: { output_tokens: 100 } });

    const bigger: ModelRequest = { ...request, messages: [{ role: 'user', content: 'y'.repeat(4000) }] };
    const big = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'ok' }] }]).stream(bigger, never()));
    const bigInput = big[0]?.type === 'message_start' ? big[0].message.usage.input_tokens! : 0;
    expect(bigInput).toBeGreaterThan(1000);
    expect(bigInput).toBeLessThan(1100);

    const given = await collect(
      createScriptedClient([{ content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 9, output_tokens: 3, cache_read_input_tokens: 5 } }]).stream(request, never()),
    );
    expect(given[0]).toMatchObject({ message: { usage: { input_tokens: 9, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 } } });
    expect(given.find((e) => e.type === 'message_delta')).toMatchObject({ usage: { output_tokens: 3 } });
  });

  it('plays one turn per call and records the requests', async () => {
    const c = createScriptedClient([{ content: [{ type: 'text', text: 'first' }] }, { content: [{ type: 'text', text: 'second' }] }]);
    expect(c.remaining()).toBe(2);
    expect(joined(await collect(c.stream(request, never())), 0)).toBe('first');
    const req2 = { ...request, messages: [...request.messages, { role: 'assistant' as const, content: 'first' }, { role: 'user' as const, content: 'go on' }] };
    expect(joined(await collect(c.stream(req2, never())), 0)).toBe('second');
    expect(c.requests).toEqual([request, req2]);
    expect(c.remaining()).toBe(0);
  });

  it('running out of turns yields a clear, non-retryable invalid_request error', async () => {
    const c = createScriptedClient([{ content: [{ type: 'text', text: 'only one' }] }]);
    await collect(c.stream(request, never()));
    const events = await collect(c.stream(request, never()));
    expect(events).toHaveLength(1);
    const err = lastError(events);
    expect(err).toMatchObject({ kind: 'invalid_request', retryable: false });
    expect(err.message).toMatch(/the scripted model has no turn 2: the scenario's script has only 1 turn\b/i);
  });

  it('rejects a malformed script when created', () => {
    expect(() => createScriptedClient([{ content: [{ type: 'text' }] } as unknown as ScriptedTurn])).toThrow();
  });

  describe('faults', () => {
    it('http → the same ModelError the Anthropic client maps (429 with retry-after)', async () => {
      const events = await collect(createScriptedClient([{ fault: { kind: 'http', status: 429, retryAfterSeconds: 3 } }]).stream(request, never()));
      expect(events).toHaveLength(1);
      expect(lastError(events)).toMatchObject({ kind: 'rate_limit', status: 429, retryable: true, retryAfterMs: 3000 });
    });

    it('http 401 → authentication, not retryable; 529 overloaded; 400 prompt too long', async () => {
      const c = createScriptedClient([
        { fault: { kind: 'http', status: 401 } },
        { fault: { kind: 'http', status: 529 } },
        { fault: { kind: 'http', status: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum' } },
      ]);
      expect(lastError(await collect(c.stream(request, never())))).toMatchObject({ kind: 'authentication', retryable: false });
      expect(lastError(await collect(c.stream(request, never())))).toMatchObject({ kind: 'overloaded', retryable: true });
      expect(lastError(await collect(c.stream(request, never())))).toMatchObject({ kind: 'prompt_too_long', retryable: false });
    });

    it('truncate → exactly N events, then stream_cut', async () => {
      const events = await collect(
        createScriptedClient([{ content: [{ type: 'text', text: 'a b c d e f g h i' }], fault: { kind: 'truncate', afterEvents: 5 } }]).stream(request, never()),
      );
      expect(events).toHaveLength(6);
      expect(events.some((e) => e.type === 'message_stop')).toBe(false);
      expect(lastError(events)).toMatchObject({ kind: 'stream_cut', retryable: true });
    });

    it('truncate past the end still stops before message_stop', async () => {
      const events = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'hi' }], fault: { kind: 'truncate', afterEvents: 999 } }]).stream(request, never()));
      expect(events.some((e) => e.type === 'message_stop')).toBe(false);
      expect(events[events.length - 2]?.type).toBe('message_delta');
      expect(lastError(events).kind).toBe('stream_cut');
    });

    it('stream_error → error after N events with the server message', async () => {
      const events = await collect(
        createScriptedClient([
          { content: [{ type: 'text', text: 'a b c d e f' }], fault: { kind: 'stream_error', afterEvents: 2, errorType: 'api_error', message: 'Internal hiccup' } },
        ]).stream(request, never()),
      );
      expect(events).toHaveLength(3);
      const err = lastError(events);
      expect(err).toMatchObject({ kind: 'stream_cut', retryable: true });
      expect(err.message).toContain('Internal hiccup');
    });

    it('stall → waits until aborted, then aborted', async () => {
      const ctl = new AbortController();
      const events = await collect(
        createScriptedClient([{ content: [{ type: 'text', text: 'a b c d' }], fault: { kind: 'stall', afterEvents: 3 } }]).stream(request, ctl.signal),
        (_e, n) => {
          if (n === 3) queueMicrotask(() => ctl.abort());
        },
      );
      expect(events).toHaveLength(4);
      expect(lastError(events).kind).toBe('aborted');
    });
  });

  describe('abort and pacing', () => {
    it('abort between chunks stops the stream with aborted', async () => {
      const ctl = new AbortController();
      const events = await collect(
        createScriptedClient([{ content: [{ type: 'text', text: 'a b c d e f g h i j k l m n o' }] }]).stream(request, ctl.signal),
        (_e, n) => {
          if (n === 3) ctl.abort();
        },
      );
      expect(events).toHaveLength(4);
      expect(lastError(events)).toMatchObject({ kind: 'aborted', retryable: false });
    });

    it('already aborted → a single aborted error', async () => {
      const ctl = new AbortController();
      ctl.abort();
      const events = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'x' }] }]).stream(request, ctl.signal));
      expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'aborted' }) }]);
    });

    it('chunkDelayMs paces every event through the injected clock', async () => {
      const clock = new FakeClock();
      const events = await collect(createScriptedClient([{ content: [{ type: 'text', text: 'a b c d e f' }] }], { chunkDelayMs: 25, clock }).stream(request, never()));
      expect(clock.sleeps).toHaveLength(events.length);
      expect(new Set(clock.sleeps)).toEqual(new Set([25]));
    });

    it('countTokens estimates from the request', async () => {
      expect(await createScriptedClient([]).countTokens!(request)).toBe(estimateRequestTokens(request));
    });
  });
});

describe('scripted client and fake server agree', () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const turns: ScriptedTurn[] = [
    {
      content: [
        { type: 'thinking', thinking: 'The user wants a listing; bash can do it.' },
        { type: 'text', text: "I'll list the files for you now." },
        { type: 'tool_use', name: 'bash', input: { command: 'ls -la', description: 'List files' } },
        { type: 'tool_use', id: 'toolu_fixed', name: 'read', input: { path: '/home/project/README.md' } },
      ],
      usage: { cache_read_input_tokens: 42 },
    },
    { content: [{ type: 'tool_use_raw', name: 'bash', partial_json: '{"command": "echo hi", broken' }] },
    { content: [{ type: 'text', text: 'All done, the files are listed above.' }], stop_reason: 'end_turn' },
    { content: [], stop_reason: 'refusal' },
    { fault: { kind: 'http', status: 429, retryAfterSeconds: 1.5 } },
    { fault: { kind: 'http', status: 529 } },
    { fault: { kind: 'http', status: 401 } },
    { fault: { kind: 'http', status: 404 } },
    { fault: { kind: 'http', status: 400, message: 'prompt is too long: 1 > 0' } },
    { content: [{ type: 'text', text: 'a b c d e f g' }], fault: { kind: 'stream_error', afterEvents: 4, errorType: 'overloaded_error', message: 'Overloaded' } },
    { content: [{ type: 'text', text: 'a b c d e f g' }], fault: { kind: 'truncate', afterEvents: 5 } },
  ];

  it('produce the same event sequence (and the same ModelErrors) for the same turns', async () => {
    server.setTurns(turns);
    const live: ModelClient = createAnthropicClient({ apiKey: 'sk-ant-test', baseURL: server.url, dangerouslyAllowBrowser: true });
    const scripted = createScriptedClient(turns);
    for (let i = 0; i < turns.length; i++) {
      const a = await collect(scripted.stream(request, never()));
      const b = await collect(live.stream(request, never()));
      const fault = turns[i]!.fault;
      if (fault?.kind === 'truncate') {
        // How a cut is noticed differs (no more events vs. a socket error); what the loop sees does not.
        expect(b.slice(0, -1), `turn ${i + 1}`).toEqual(a.slice(0, -1));
        expect(lastError(b)).toMatchObject({ kind: lastError(a).kind, retryable: lastError(a).retryable });
      } else {
        expect(b, `turn ${i + 1}`).toEqual(a);
      }
    }
  });
});
