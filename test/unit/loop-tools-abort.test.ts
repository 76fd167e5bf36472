import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentLoop,
  blocksOf,
  buildTool,
  builtinTools,
  type ModelClient,
  type ModelStreamEvent,
  type ToolResultBlock,
} from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { barrierTool, drain, ofType, setup, transitions } from './loop-helpers.ts';

describe('agentLoop: tool concurrency', () => {
  it('runs consecutive concurrency-safe calls together and returns results in call order', async () => {
    const finishOrder: string[] = [];
    const probe = barrierTool(3, finishOrder);
    const { input, deps } = await setup(
      [
        {
          content: [
            // a finishes last, c first: completion order differs from call order
            { type: 'tool_use', name: 'probe', input: { label: 'a', finishAfter: ['b', 'c'] } },
            { type: 'tool_use', name: 'probe', input: { label: 'b', finishAfter: ['c'] } },
            { type: 'tool_use', name: 'probe', input: { label: 'c' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
      { tools: [probe] },
    );
    const { events, result } = await drain(input, deps);
    const started = ofType(events, 'tool.started');
    expect(started.every((e) => e.concurrent)).toBe(true);
    // all three were in flight at once (the barrier filled)
    expect(ofType(events, 'tool.result').map((e) => e.content)).toEqual(['c:met', 'b:met', 'a:met']);
    expect(finishOrder).toEqual(['c', 'b', 'a']);
    // but the message holds them in the order the model asked
    const results = blocksOf(result.messages[2]!) as ToolResultBlock[];
    expect(results.map((r) => r.content)).toEqual(['a:met', 'b:met', 'c:met']);
  });

  it('runs a non-concurrency-safe call alone, between batches, in order', async () => {
    const order: string[] = [];
    const tracer = (name: string, safe: boolean) =>
      buildTool({
        name,
        description: name,
        inputSchema: z.object({ id: z.string() }),
        isConcurrencySafe: () => safe,
        call: async ({ id }) => {
          order.push(`start ${id}`);
          await Promise.resolve();
          order.push(`end ${id}`);
          return { content: id };
        },
      });
    const { input, deps } = await setup(
      [
        {
          content: [
            { type: 'tool_use', name: 'safe', input: { id: 's1' } },
            { type: 'tool_use', name: 'safe', input: { id: 's2' } },
            { type: 'tool_use', name: 'unsafe', input: { id: 'u1' } },
            { type: 'tool_use', name: 'safe', input: { id: 's3' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
      { tools: [tracer('safe', true), tracer('unsafe', false)] },
    );
    const { events } = await drain(input, deps);
    // s1 and s2 overlap; u1 starts only after both ended; s3 only after u1 ended
    expect(order.indexOf('start s2')).toBeLessThan(order.indexOf('end s1'));
    expect(order.indexOf('start u1')).toBeGreaterThan(order.indexOf('end s2'));
    expect(order.indexOf('start s3')).toBeGreaterThan(order.indexOf('end u1'));
    expect(ofType(events, 'tool.started').map((e) => [e.toolUseId, e.concurrent])).toEqual([
      ['toolu_scripted_1', true],
      ['toolu_scripted_2', true],
      ['toolu_scripted_3', false],
      ['toolu_scripted_4', false],
    ]);
  });

  it('a tool that throws becomes an error result and the loop goes on', async () => {
    const broken = buildTool({
      name: 'broken',
      description: 'always throws',
      inputSchema: z.object({}),
      call: async () => {
        throw new Error('kaboom');
      },
    });
    const { input, deps } = await setup(
      [{ content: [{ type: 'tool_use', name: 'broken', input: {} }] }, { content: [{ type: 'text', text: 'ok' }] }],
      { tools: [broken] },
    );
    const { events, result } = await drain(input, deps);
    const r = ofType(events, 'tool.result')[0]!;
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/kaboom/);
    expect(result.reason).toBe('completed');
  });
});

describe('agentLoop: abort', () => {
  it('abort mid-stream ends the run aborted with a valid transcript', async () => {
    const controller = new AbortController();
    const { input, deps } = await setup([{ content: [{ type: 'text', text: 'a long reply that streams in many small chunks of text' }] }], {
      input: { signal: controller.signal },
    });
    const loop = agentLoop(input, deps);
    const events = [];
    let step = await loop.next();
    while (!step.done) {
      events.push(step.value);
      if (step.value.type === 'model.delta') controller.abort();
      step = await loop.next();
    }
    expect(step.value.reason).toBe('aborted');
    expect(transitions(events)).toEqual(['aborted']);
    expect(checkTranscript(step.value.messages)).toEqual([]);
  });

  it('abort mid-tool interrupts the running command and closes every tool_use with a result', async () => {
    const controller = new AbortController();
    const { input, deps } = await setup(
      [
        {
          content: [
            { type: 'tool_use', name: 'bash', input: { command: 'sleep 30' } },
            { type: 'tool_use', name: 'bash', input: { command: 'echo never' } },
          ],
        },
        { content: [{ type: 'text', text: 'not reached' }] },
      ],
      { input: { signal: controller.signal } },
    );
    const loop = agentLoop(input, deps);
    const events = [];
    let step = await loop.next();
    while (!step.done) {
      events.push(step.value);
      if (step.value.type === 'tool.started') controller.abort();
      step = await loop.next();
    }
    const result = step.value;
    expect(result.reason).toBe('aborted');
    expect(checkTranscript(result.messages)).toEqual([]);
    const results = ofType(events, 'tool.result');
    expect(results).toHaveLength(2);
    expect(results[0]!.content).toMatch(/interrupted/);
    expect(results[1]!.content).toMatch(/not run/);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(await deps.sandbox.fs.stat('/home/project/never')).toBeNull();
  });

  it('abort while waiting to retry ends the run at once', async () => {
    const controller = new AbortController();
    const { input, deps } = await setup([{ fault: { kind: 'http', status: 529 } }, { content: [{ type: 'text', text: 'x' }] }], {
      input: { signal: controller.signal },
    });
    const loop = agentLoop(input, deps);
    let step = await loop.next();
    const events = [];
    while (!step.done) {
      events.push(step.value);
      if (step.value.type === 'model.error') controller.abort();
      step = await loop.next();
    }
    expect(step.value.reason).toBe('aborted');
  });

  it('drops a tool call whose input never finished streaming when the stream is cut by max_tokens', async () => {
    // A port-level client that streams exactly what a cut reply looks like on the wire.
    const events: ModelStreamEvent[] = [
      { type: 'message_start', message: { id: 'm1', model: 'x', usage: { input_tokens: 5 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me write it.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'write', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file_path":"a' } },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ];
    const after = createScriptedClient([{ content: [{ type: 'text', text: 'done' }] }]);
    let calls = 0;
    const client: ModelClient = {
      name: 'cut',
      async *stream(request, signal) {
        calls++;
        if (calls === 1) yield* events;
        else yield* after.stream(request, signal);
      },
    };
    const { input, deps } = await setup([]);
    const { result } = await drain(input, { ...deps, model: client });
    expect(result.reason).toBe('completed');
    expect(blocksOf(result.messages[1]!)).toEqual([{ type: 'text', text: 'Let me write it.' }]);
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});

describe('agentLoop: re-entrancy', () => {
  it('a second loop with its own state can run inside a tool', async () => {
    const { deps } = await setup([]);
    const nestedEvents: string[] = [];
    const delegate = buildTool({
      name: 'delegate',
      description: 'runs a sub-agent',
      inputSchema: z.object({ task: z.string() }),
      call: async ({ task }, ctx) => {
        const sub = agentLoop(
          {
            messages: [{ role: 'user', content: task }],
            system: 'sub',
            tools: builtinTools(),
            model: 'sub-model',
            maxTokens: 100,
            maxTurns: 5,
            signal: ctx.signal,
            permissions: { mode: 'acceptEdits', rules: [{ behavior: 'allow', source: 'project', rule: { kind: 'tool', tool: 'Bash', specifier: 'echo *', text: 'Bash(echo *)' } }], workdir: ctx.sandbox.workdir },
          },
          {
            ...deps,
            agentId: 'sub-1',
            model: createScriptedClient([
              { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo from-sub > sub.txt' } }] },
              { content: [{ type: 'text', text: 'sub finished' }] },
            ]),
          },
        );
        let step = await sub.next();
        while (!step.done) {
          nestedEvents.push(`${step.value.agentId}:${step.value.type}`);
          step = await sub.next();
        }
        const last = step.value.messages.at(-1)!;
        return { content: typeof last.content === 'string' ? last.content : blocksOf(last).map((b) => (b.type === 'text' ? b.text : '')).join('') };
      },
    });
    const outer = await setup(
      [{ content: [{ type: 'tool_use', name: 'delegate', input: { task: 'write sub.txt' } }] }, { content: [{ type: 'text', text: 'outer done' }] }],
      { tools: [delegate] },
    );
    const { events, result } = await drain(outer.input, { ...outer.deps, sandbox: deps.sandbox });
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'tool.result')[0]!.content).toBe('sub finished');
    expect(nestedEvents[0]).toBe('sub-1:run.start');
    expect(nestedEvents.at(-1)).toBe('sub-1:run.end');
    expect(events.every((e) => e.agentId === 'main')).toBe(true);
    expect(await deps.sandbox.fs.readFile('/home/project/sub.txt')).toBe('from-sub\n');
  });
});
