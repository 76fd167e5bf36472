/**
 * Record a live run (real SDK → local fake Anthropic server), turn it into a scenario, and replay
 * that scenario with the scripted client: the same tool calls (same ids), texts and transitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, type Message } from '../../src/harness/messages.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { createRecordingClient } from '../../src/model/recorder/recording-client.ts';
import { toScenario } from '../../src/scenarios/from-recording.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { toRunnableScenario } from '../../src/scenarios/migrate.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

const KEY = 'sk-ant-api03-RECORDERKEY_0123456789';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

const toolCalls = (messages: Message[]) =>
  messages.flatMap((m) => blocksOf(m).flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : [])));
const texts = (messages: Message[]) =>
  messages.filter((m) => m.role === 'assistant').flatMap((m) => blocksOf(m).flatMap((b) => (b.type === 'text' ? [b.text] : [])));
const errorKinds = (events: TraceEvent[]) => ofType(events, 'model.error').map((e) => e.error.kind);

describe('recorder', () => {
  it('records a live run and replays it offline with the same calls, texts and transitions', async () => {
    server.setTurns([
      { fault: { kind: 'http', status: 429, errorType: 'rate_limit_error', retryAfterSeconds: 2 } },
      {
        content: [
          { type: 'thinking', thinking: 'I should look first.' },
          { type: 'text', text: 'Let me look around.' },
          { type: 'tool_use', name: 'bash', input: { command: 'echo rec > rec.txt && ls' } },
          { type: 'tool_use', name: 'read', input: { file_path: 'seed.txt' } },
        ],
        usage: { input_tokens: 120, output_tokens: 40, cache_read_input_tokens: 7 },
      },
      { fault: { kind: 'stream_error', afterEvents: 4, errorType: 'overloaded_error', message: 'Overloaded' } },
      { content: [{ type: 'tool_use_raw', name: 'bash', partial_json: '{"command": "ls' }] },
      { content: [{ type: 'text', text: `All done (I saw ${KEY} nowhere).` }] },
    ]);
    const live = await setup([], { files: { 'seed.txt': 'seed' } });
    const recorder = createRecordingClient(createAnthropicClient({ apiKey: KEY, baseURL: server.url }), { clock: live.clock, secrets: [KEY] });
    const liveRun = await drain(live.input, { ...live.deps, model: recorder });
    expect(liveRun.result.reason).toBe('completed');

    const recording = recorder.recording();
    expect(recording.turns).toHaveLength(5);
    expect(recording.modelId).toBe('test-model');
    expect(recording.turns[0]).toMatchObject({ fault: { kind: 'http', status: 429, retryAfterSeconds: 2 } });
    expect(recording.turns[1]!.usage).toMatchObject({ input_tokens: 120, cache_read_input_tokens: 7 });
    expect(recording.turns[2]!.fault).toMatchObject({ kind: 'stream_error', errorType: 'overloaded_error' });
    expect(recording.turns[3]!.content![0]).toMatchObject({ type: 'tool_use_raw', partial_json: '{"command": "ls' });

    const made = toScenario(recording, { id: 'recorded-demo', title: 'Recorded', prompt: 'Do the task.', files: { 'seed.txt': 'seed' }, model: { kind: 'anthropic', model: 'test-model' } }, { secrets: [KEY] });
    if (!made.ok) throw new Error(made.errors.join('\n'));
    expect(made.scenario.model.kind).toBe('recorded');
    expect(JSON.stringify(made.scenario)).not.toContain('RECORDERKEY');

    // Replay: a JSON round trip (as a link would carry it), no key, no server.
    const scenario = toRunnableScenario(JSON.parse(JSON.stringify(made.scenario)));
    if (scenario.model.kind !== 'scripted') throw new Error('expected scripted');
    const replay = await setup([], { files: scenario.files });
    const replayRun = await drain(replay.input, { ...replay.deps, model: createScriptedClient(scenario.model.turns) });

    expect(replayRun.result.reason).toBe('completed');
    expect(toolCalls(replayRun.result.messages)).toEqual(toolCalls(liveRun.result.messages));
    expect(toolCalls(liveRun.result.messages)[0]!.id).toMatch(/^toolu_/); // the ids the live server gave
    expect(texts(replayRun.result.messages).slice(0, -1)).toEqual(texts(liveRun.result.messages).slice(0, -1));
    expect(texts(replayRun.result.messages).at(-1)).toBe('All done (I saw [redacted] nowhere).');
    expect(transitions(replayRun.events)).toEqual(transitions(liveRun.events));
    expect(errorKinds(replayRun.events)).toEqual(errorKinds(liveRun.events));
    expect(replay.clock.sleeps).toEqual(live.clock.sleeps);
    expect(ofType(replayRun.events, 'tool.result').map((r) => r.content)).toEqual(ofType(liveRun.events, 'tool.result').map((r) => r.content));
    expect(await replay.deps.sandbox.fs.readFile('/home/project/rec.txt')).toBe('rec\n');
  });

  it('records a call the consumer walked away from as a stall', async () => {
    server.setTurns([{ content: [{ type: 'text', text: 'one two three four five six seven eight nine ten' }] }]);
    const recorder = createRecordingClient(createAnthropicClient({ apiKey: KEY, baseURL: server.url }));
    const it = recorder.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    await it.return?.();
    const [turn] = recorder.recording().turns;
    expect(turn!.fault).toMatchObject({ kind: 'stall', afterEvents: 2 });
  });
});
