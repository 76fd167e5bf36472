import { describe, expect, it } from 'vitest';
import { agentLoop, blocksOf, toolUsesOf } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { EMPTY_RESPONSE_RETRY, MALFORMED_TOOL_USE_RETRY, MAX_TOKENS_RESUME } from '../../src/harness/loop/meta-messages.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { drain, lastUserText, ofType, setup, transitions } from './loop-helpers.ts';

describe('agentLoop: exits', () => {
  it('completes on a text-only reply and reports usage', async () => {
    const { input, deps } = await setup([{ content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 10, output_tokens: 3 } }]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    expect(result.turns).toBe(1);
    expect(result.usage).toMatchObject({ input_tokens: 10, output_tokens: 3 });
    expect(transitions(events)).toEqual(['completed']);
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['run.start', 'message.appended', 'turn.start']);
    expect(events.at(-1)).toMatchObject({ type: 'run.end', reason: 'completed' });
    // seq is strictly increasing from 1
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('runs a tool, feeds the result back and continues with next_turn', async () => {
    const { input, deps, client } = await setup(
      [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi > a.txt && cat a.txt' } }] },
        { content: [{ type: 'text', text: 'Wrote a.txt.' }] },
      ],
      {},
    );
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['next_turn', 'completed']);
    const toolResult = ofType(events, 'tool.result')[0]!;
    expect(toolResult).toMatchObject({ name: 'bash', isError: false });
    expect(toolResult.content).toContain('hi');
    // the second request carries the tool result
    const second = client.requests[1]!;
    const lastMsg = second.messages.at(-1)!;
    expect(blocksOf(lastMsg)[0]).toMatchObject({ type: 'tool_result', content: expect.stringContaining('hi') });
    expect(ofType(events, 'sandbox.changed')[0]!.paths).toContain('/home/project/a.txt');
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('stops at max_turns', async () => {
    const call = { content: [{ type: 'tool_use' as const, name: 'bash', input: { command: 'true' } }] };
    const { input, deps } = await setup([call, call, call, call], { input: { maxTurns: 2 } });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(transitions(events)).toEqual(['next_turn', 'next_turn', 'max_turns']);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('exits with refusal when the model refuses; the refused reply is not kept, the explanation is shown', async () => {
    const { input, deps } = await setup([
      {
        content: [{ type: 'text', text: 'Sure, here is how to' }],
        stop_reason: 'refusal',
        stop_details: { type: 'refusal', category: 'cyber', explanation: 'The request could enable malware.' },
      },
    ]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('refusal');
    expect(transitions(events)).toEqual(['refusal']);
    // Not sent back as if accepted: history ends with the user's prompt, nothing of the refused reply.
    expect(result.messages).toEqual([{ role: 'user', content: 'Do the task.' }]);
    expect(ofType(events, 'message.appended').some((e) => e.origin === 'assistant')).toBe(false);
    expect(ofType(events, 'model.response')[0]).toMatchObject({ stopReason: 'refusal', stopDetails: { category: 'cyber', explanation: 'The request could enable malware.' } });
    expect(ofType(events, 'transition')[0]!.detail).toMatch(/explanation \(category: cyber\): The request could enable malware\..*rephrase/);
    // The conversation view shows the explanation on the end card, and no assistant bubble.
    const items = deriveConversation(events, { settled: true });
    expect(items.find((i) => i.kind === 'end')).toMatchObject({ reason: 'refusal', refusal: { category: 'cyber', explanation: 'The request could enable malware.' } });
    expect(items.some((i) => i.kind === 'assistant')).toBe(false);
  });

  it('after a refusal a new prompt carries on from a clean history', async () => {
    const first = await setup([{ content: [{ type: 'text', text: 'No.' }], stop_reason: 'refusal' }, { content: [{ type: 'text', text: 'Happy to help with that.' }] }]);
    const refused = await drain(first.input, first.deps);
    expect(ofType(refused.events, 'transition')[0]!.detail).toMatch(/gave no explanation/);
    const next = await drain({ ...first.input, messages: [...refused.result.messages.slice(0, -1), { role: 'user', content: 'Then explain sorting.' }] }, first.deps);
    expect(next.result.reason).toBe('completed');
    const sent = first.client.requests[1]!.messages;
    expect(JSON.stringify(sent)).not.toContain('No.');
    expect(sent.every((m) => m.role === 'user')).toBe(true);
  });

  it('answers an unknown tool with an error result listing the tools', async () => {
    const { input, deps } = await setup([
      { content: [{ type: 'tool_use', name: 'teleport', input: {} }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const { events, result } = await drain(input, deps);
    const r = ofType(events, 'tool.result')[0]!;
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/No tool is called "teleport"/);
    expect(r.content).toContain('bash, read, write, edit, glob, grep, revert');
    expect(ofType(events, 'tool.validated')[0]).toMatchObject({ ok: false });
    expect(result.reason).toBe('completed');
  });

  it('answers invalid input with an error naming the field', async () => {
    const { input, deps } = await setup([
      { content: [{ type: 'tool_use', name: 'read', input: { path: 'x' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const { events } = await drain(input, deps);
    const r = ofType(events, 'tool.result')[0]!;
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/file_path: missing/);
  });
});

describe('agentLoop: continue sites', () => {
  it('max_output_tokens_recovery keeps the partial text and injects a resume message', async () => {
    const { input, deps, client } = await setup([
      { content: [{ type: 'text', text: 'The first half of a long' }], stop_reason: 'max_tokens' },
      { content: [{ type: 'text', text: ' answer, finished.' }] },
    ]);
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['max_output_tokens_recovery', 'completed']);
    const second = client.requests[1]!;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastUserText(second.messages)).toBe(MAX_TOKENS_RESUME);
    expect(blocksOf(second.messages[1]!)[0]).toMatchObject({ type: 'text', text: 'The first half of a long' });
    expect(result.reason).toBe('completed');
  });

  it('max_output_tokens_recovery is bounded to 3 attempts', async () => {
    const cut = { content: [{ type: 'text' as const, text: 'more' }], stop_reason: 'max_tokens' as const };
    const { input, deps } = await setup([cut, cut, cut, cut, cut]);
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual([
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
      'model_error',
    ]);
    expect(result.reason).toBe('model_error');
    expect(result.error?.message).toMatch(/output limit 4 times in a row/);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('a max_tokens cut drops the half-written tool call but runs the complete ones', async () => {
    const { input, deps, client } = await setup([
      {
        content: [
          { type: 'tool_use', name: 'bash', input: { command: 'echo one' } },
          // Streams only part of its JSON before the cut: the stream never closes this block.
          { type: 'tool_use_raw', name: 'bash', partial_json: '{"command": "echo tw' },
        ],
        stop_reason: 'max_tokens',
      },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const { result } = await drain(input, deps);
    const assistant = client.requests[1]!.messages[1]!;
    // The raw block did close (scripted streams close blocks), so it is kept as malformed and answered.
    expect(toolUsesOf(assistant).length).toBeGreaterThanOrEqual(1);
    expect(checkTranscript(result.messages)).toEqual([]);
    expect(lastUserText(client.requests[1]!.messages)).toBe(MAX_TOKENS_RESUME);
  });

  it('malformed tool input is kept as an object, answered with an error, and nudged once', async () => {
    const { input, deps, client } = await setup([
      { content: [{ type: 'tool_use_raw', name: 'write', partial_json: '{"file_path": "a.txt", "content": "x' }] },
      { content: [{ type: 'tool_use_raw', name: 'write', partial_json: '{"file_path": ' }] },
      { content: [{ type: 'tool_use', name: 'write', input: { file_path: 'a.txt', content: 'x' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const { events, result } = await drain(input, deps);
    // never twice in a row: the second malformed turn continues as a plain next_turn
    expect(transitions(events)).toEqual(['malformed_tool_use_retry', 'next_turn', 'next_turn', 'completed']);
    const second = client.requests[1]!;
    const kept = toolUsesOf(second.messages[1]!)[0]!;
    expect(kept.input).toEqual({ __invalid_json_input: '{"file_path": "a.txt", "content": "x' });
    expect(lastUserText(second.messages)).toBe(MALFORMED_TOOL_USE_RETRY);
    const third = client.requests[2]!;
    expect(lastUserText(third.messages)).toBe('');
    const errors = ofType(events, 'tool.result').filter((r) => r.isError);
    expect(errors).toHaveLength(2);
    expect(errors[0]!.content).toMatch(/not valid JSON/);
    expect(await deps.sandbox.fs.readFile('/home/project/a.txt')).toBe('x');
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('an empty reply gets one nudge, and an empty assistant message is never sent back', async () => {
    const { input, deps, client } = await setup([{ content: [] }, { content: [{ type: 'text', text: 'Here.' }] }]);
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['empty_response_retry', 'completed']);
    const second = client.requests[1]!;
    expect(second.messages).toHaveLength(1);
    expect(lastUserText(second.messages)).toContain(EMPTY_RESPONSE_RETRY);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('model_retry backs off 0.5 s × 2ⁿ and honours retry-after; the turn does not advance', async () => {
    const { input, deps, clock } = await setup([
      { fault: { kind: 'http', status: 529 } },
      { fault: { kind: 'http', status: 500 } },
      { fault: { kind: 'http', status: 429, retryAfterSeconds: 7 } },
      { fault: { kind: 'truncate', afterEvents: 3 } },
      { content: [{ type: 'text', text: 'finally' }] },
    ]);
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['model_retry', 'model_retry', 'model_retry', 'model_retry', 'completed']);
    expect(clock.sleeps).toEqual([500, 1000, 7000, 4000]);
    expect(ofType(events, 'model.error').map((e) => e.error.kind)).toEqual(['overloaded', 'server', 'rate_limit', 'stream_cut']);
    expect(ofType(events, 'model.request').map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(result.turns).toBe(1);
    expect(result.reason).toBe('completed');
  });

  it('model_retry is bounded; then the run ends with model_error', async () => {
    const f = { fault: { kind: 'http' as const, status: 500 } };
    const { input, deps } = await setup([f, f, f], { input: { budgets: { modelRetries: 2 } } });
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['model_retry', 'model_retry', 'model_error']);
    expect(result.reason).toBe('model_error');
    expect(result.error?.kind).toBe('server');
  });

  it('overloaded (529) has a longer budget that rides out a short outage, on an exact schedule', async () => {
    const f = { fault: { kind: 'http' as const, status: 529 } };
    const { input, deps, clock } = await setup([...Array(10).fill(f), { content: [{ type: 'text', text: 'back' }] }]);
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000, 8000, 16000, 16000, 16000, 16000, 16000]);
    const waited = clock.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(60_000);
    expect(waited).toBeLessThanOrEqual(120_000);
    expect(ofType(events, 'model.error').map((e) => e.retryInMs)).toEqual(clock.sleeps);
    expect(ofType(events, 'transition')[9]!.detail).toBe('retry 10 of 10 after overloaded');
  });

  it('a permanent 529 gives up after the overloaded budget; a 500 keeps the short one', async () => {
    const f = { fault: { kind: 'http' as const, status: 529 } };
    const { input, deps } = await setup(Array(12).fill(f));
    const { events, result } = await drain(input, deps);
    expect(transitions(events).filter((t) => t === 'model_retry')).toHaveLength(10);
    expect(result.error?.kind).toBe('overloaded');
    const s = { fault: { kind: 'http' as const, status: 500 } };
    const short = await setup(Array(6).fill(s));
    const out = await drain(short.input, short.deps);
    expect(transitions(out.events).filter((t) => t === 'model_retry')).toHaveLength(4);
  });

  it('retry-after is honoured up to the ceiling; past it the run stops and names the wait asked for', async () => {
    const ok = await setup([{ fault: { kind: 'http', status: 429, retryAfterSeconds: 60 } }, { content: [{ type: 'text', text: 'ok' }] }]);
    const fine = await drain(ok.input, ok.deps);
    expect(fine.result.reason).toBe('completed');
    expect(ok.clock.sleeps).toEqual([60_000]);

    const long = await setup([{ fault: { kind: 'http', status: 429, retryAfterSeconds: 3600 } }, { content: [{ type: 'text', text: 'never' }] }]);
    const { events, result } = await drain(long.input, long.deps);
    expect(long.clock.sleeps).toEqual([]);
    expect(result.reason).toBe('model_error');
    expect(result.error).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(result.error!.message).toMatch(/asked to wait 1 h 0 min before retrying — longer than the 1 min this run waits/);
    expect(ofType(events, 'model.error')[0]).not.toHaveProperty('retryInMs');
    expect(long.client.requests).toHaveLength(1);
  });

  it('a 401 fails fast without retrying', async () => {
    const { input, deps, clock } = await setup([{ fault: { kind: 'http', status: 401 } }]);
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['model_error']);
    expect(result.error?.kind).toBe('authentication');
    expect(clock.sleeps).toEqual([]);
  });

  it('the pieces of one run never repeat a model call identically', async () => {
    const { input, deps, client } = await setup([
      { content: [{ type: 'text', text: 'a' }], stop_reason: 'max_tokens' },
      { content: [{ type: 'tool_use_raw', name: 'bash', partial_json: '{' }] },
      { content: [] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    await drain(input, deps);
    const bodies = client.requests.map((r) => JSON.stringify(r.messages));
    expect(new Set(bodies).size).toBe(bodies.length);
  });
});

describe('agentLoop: stepping', () => {
  it('is lazy: nothing runs ahead of the consumer', async () => {
    const { input, deps, client } = await setup([{ content: [{ type: 'text', text: 'hi' }] }]);
    const loop = agentLoop(input, deps);
    const seen: string[] = [];
    while (true) {
      const step = await loop.next();
      if (step.done) break;
      seen.push(step.value.type);
      if (step.value.type === 'model.request') {
        // The request is announced before it is sent; the model has not been called yet.
        expect(client.requests).toHaveLength(0);
      }
    }
    expect(client.requests).toHaveLength(1);
    expect(seen.filter((t) => t === 'model.delta').length).toBeGreaterThan(0);
  });
});
