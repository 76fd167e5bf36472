import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { INTERRUPTED_RESULT } from '../../src/harness/loop/meta-messages.ts';
import type { LoopDeps, LoopInput, RunResult } from '../../src/harness/loop/types.ts';
import { addUsage, type Message } from '../../src/harness/messages.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun } from '../../src/harness/session/persist-run.ts';
import { repairTranscript } from '../../src/harness/session/repair.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import { SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { setup } from './loop-helpers.ts';

async function persisted(store: MemorySessionStore, sessionId: string, input: LoopInput, deps: LoopDeps, clock: FakeClock) {
  const writer = new SessionLogWriter(store, sessionId);
  const events: TraceEvent[] = [];
  const tracker = new SnapshotTracker();
  const gen = persistRun(agentLoop(input, deps), {
    writer,
    clock,
    snapshots: { fs: deps.sandbox.fs, root: deps.sandbox.workdir, tracker },
  });
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, result: step.value as RunResult };
}

async function loadLog(store: MemorySessionStore, id: string): Promise<SessionLogEvent[]> {
  const r = await store.load(id);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const twoTurns = [
  { content: [{ type: 'text' as const, text: 'Writing it.' }, { type: 'tool_use' as const, id: 'toolu_w', name: 'write', input: { file_path: 'a.txt', content: 'A\n' } }] },
  { content: [{ type: 'text' as const, text: 'Done.' }] },
];

describe('replaySession', () => {
  it('rebuilds the history, runs, usage and context state of a two-run session', async () => {
    const s = await setup([...twoTurns, { content: [{ type: 'text', text: 'Second answer.' }] }]);
    const store = new MemorySessionStore({ clock: s.clock, ids: new SequentialIds() });
    const created = await store.create({ title: 't' });
    if (!created.ok) throw new Error();
    const id = created.value.id;
    const r1 = await persisted(store, id, s.input, s.deps, s.clock);
    const r2 = await persisted(store, id, { ...s.input, messages: [...r1.result.messages, { role: 'user', content: 'And again?' }] }, s.deps, s.clock);
    const replay = replaySession(await loadLog(store, id));
    expect(replay.messages).toEqual(r2.result.messages);
    expect(replay.resumeMessages).toEqual(r2.result.messages);
    expect(replay.repairs).toEqual([]);
    expect(replay.interrupted).toBe(false);
    expect(replay.lastReason).toBe('completed');
    expect(replay.runs.map((r) => [r.prompt, r.reason, r.turns])).toEqual([
      ['Do the task.', 'completed', 2],
      ['And again?', 'completed', 1],
    ]);
    expect(replay.turns).toBe(3);
    expect(replay.usage).toEqual(addUsage(r1.result.usage, r2.result.usage));
    expect(replay.contextState).toEqual(r2.result.contextState);
    expect(replay.grantsRestored).toBe(false);
    expect(replay.notice).toMatch(/not restored/);
  });

  it('honours history.rewritten from an auto-compaction (built-in scenario)', async () => {
    const scenario = findBuiltinScenario('auto-compact')!;
    const clock = new FakeClock();
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock, ids: new SequentialIds() });
    const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
    const created = await store.create({ title: 'compact' });
    if (!created.ok) throw new Error();
    const { events, result } = await persisted(store, created.value.id, input, deps, clock);
    expect(events.some((e) => e.type === 'history.rewritten')).toBe(true);
    const replay = replaySession(await loadLog(store, created.value.id));
    expect(replay.messages).toEqual(result.messages);
    expect(replay.lastRewrite).not.toBeNull();
    expect(replay.contextState).toEqual(result.contextState);
  });

  it('marks a cut-off run as interrupted and closes its tool calls with the loop wording', async () => {
    const s = await setup(twoTurns);
    const store = new MemorySessionStore({ clock: s.clock, ids: new SequentialIds() });
    const created = await store.create({ title: 't' });
    if (!created.ok) throw new Error();
    await persisted(store, created.value.id, s.input, s.deps, s.clock);
    const log = await loadLog(store, created.value.id);
    // A reload right after the model's tool call entered the history.
    const at = log.findIndex((e) => e.type === 'message.appended' && e.origin === 'assistant') + 1;
    const replay = replaySession(log.slice(0, at));
    expect(replay.interrupted).toBe(true);
    expect(replay.lastReason).toBeNull();
    expect(replay.messages[replay.messages.length - 1]!.role).toBe('assistant');
    expect(checkTranscript(replay.resumeMessages)).toEqual([]);
    expect(JSON.stringify(replay.resumeMessages)).toContain(INTERRUPTED_RESULT);
    expect(replay.repairs.join()).toMatch(/toolu_w/);
    expect(replay.turns).toBe(1);
    expect(replay.usage.output_tokens).toBeGreaterThan(0);
  });

  it('gives a valid history to resume from, whatever event the log stops at', async () => {
    const s = await setup([
      { content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'echo one' } }, { type: 'tool_use', id: 't2', name: 'bash', input: { command: 'echo two' } }] },
      { content: [], stop_reason: 'end_turn' },
      { content: [{ type: 'text', text: 'Finished.' }] },
    ]);
    const store = new MemorySessionStore({ clock: s.clock, ids: new SequentialIds() });
    const created = await store.create({ title: 't' });
    if (!created.ok) throw new Error();
    await persisted(store, created.value.id, s.input, s.deps, s.clock);
    const log = await loadLog(store, created.value.id);
    for (let n = 1; n <= log.length; n++) {
      const replay = replaySession(log.slice(0, n));
      if (replay.resumeMessages.length === 0) continue;
      expect(checkTranscript(replay.resumeMessages), `log cut at ${n}`).toEqual([]);
    }
  });

  it('drops the prompt of a run a UserPromptSubmit hook blocked', () => {
    const meta = (seq: number) => ({ seq, ts: seq, agentId: 'main', turn: 0 });
    const first: Message = { role: 'user', content: 'hi' };
    const reply: Message = { role: 'assistant', content: [{ type: 'text', text: 'hello' }] };
    const log: SessionLogEvent[] = [
      { type: 'run.start', model: 'm', modelClient: 'scripted', sandbox: 'just-bash', tools: [], maxTurns: 3, ...meta(1) },
      { type: 'message.appended', origin: 'user', message: first, index: 0, ...meta(2) },
      { type: 'message.appended', origin: 'assistant', message: reply, index: 1, ...meta(3) },
      { type: 'run.end', reason: 'completed', turns: 1, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, ...meta(4) },
      { type: 'run.start', model: 'm', modelClient: 'scripted', sandbox: 'just-bash', tools: [], maxTurns: 3, ...meta(1) },
      { type: 'message.appended', origin: 'user', message: { role: 'user', content: 'rm -rf please' }, index: 2, ...meta(2) },
      { type: 'run.end', reason: 'prompt_blocked', turns: 0, usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, ...meta(3) },
    ];
    const replay = replaySession(log);
    expect(replay.messages).toEqual([first, reply]);
    expect(replay.runs.map((r) => r.reason)).toEqual(['completed', 'prompt_blocked']);
    expect(replay.runs[1]!.prompt).toBe('rm -rf please');
  });

  it('replaces a message when an event names an existing index (merged user content)', () => {
    const meta = (seq: number) => ({ seq, ts: seq, agentId: 'main', turn: 0 });
    const log: SessionLogEvent[] = [
      { type: 'message.appended', origin: 'user', message: { role: 'user', content: 'q' }, index: 0, ...meta(1) },
      { type: 'message.appended', origin: 'meta', message: { role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'text', text: 'ctx' }] }, index: 0, ...meta(2) },
      // Events of another agent do not enter the main history.
      { type: 'message.appended', origin: 'user', message: { role: 'user', content: 'sub' }, index: 1, ...meta(3), agentId: 'sub-1' },
    ];
    expect(replaySession(log).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'text', text: 'ctx' }] }]);
  });
});

describe('repairTranscript', () => {
  const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'bash', input: {} });
  const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' });

  it('drops a trailing empty assistant message and leaves a valid history untouched', () => {
    const good: Message[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'yo' }] }];
    expect(repairTranscript(good)).toEqual({ messages: good, repairs: [] });
    const r = repairTranscript([...good, { role: 'user', content: 'more' }, { role: 'assistant', content: [] }]);
    expect(r.messages).toEqual([...good, { role: 'user', content: 'more' }]);
    expect(r.repairs).toEqual(['message 3: dropped an empty assistant message']);
    expect(repairTranscript([{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'text', text: '  ' }] }]).messages).toHaveLength(1);
  });

  it('adds missing results first in the next user message, after the real ones', () => {
    const r = repairTranscript([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: [result('a'), { type: 'text', text: 'note' }] },
    ]);
    expect(checkTranscript(r.messages)).toEqual([]);
    const blocks = r.messages[2]!.content as { type: string; tool_use_id?: string }[];
    expect(blocks.map((b) => b.tool_use_id ?? b.type)).toEqual(['a', 'b', 'text']);
  });

  it('closes calls followed by another assistant message, and drops orphan results', () => {
    const r = repairTranscript([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a')] },
      { role: 'assistant', content: [{ type: 'text', text: 'again' }] },
      { role: 'user', content: [result('zzz')] },
    ]);
    expect(checkTranscript(r.messages)).toEqual([]);
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(r.repairs.join('\n')).toMatch(/dropped 1 result/);
  });
});

describe('SessionLogWriter', () => {
  const ev = (seq: number): SessionLogEvent => ({ type: 'turn.start', seq, ts: seq, agentId: 'main', turn: 1 });

  it('writes everything appended in one tick as one batch, without being asked', async () => {
    const clock = new FakeClock();
    const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
    const created = await store.create({ title: 't' });
    if (!created.ok) throw new Error();
    const batches: number[] = [];
    let landed!: () => void;
    const done = new Promise<void>((r) => (landed = r));
    const w = new SessionLogWriter(store, created.value.id, { onWritten: (i) => (batches.push(i.eventCount), landed()) });
    for (let i = 1; i <= 5; i++) w.append(ev(i));
    expect(w.pending).toBe(5);
    await done;
    expect(batches).toEqual([5]);
    expect(w.pending).toBe(0);
  });

  it('writes a full batch at once and keeps order across concurrent flushes', async () => {
    const clock = new FakeClock();
    const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
    const created = await store.create({ title: 't' });
    if (!created.ok) throw new Error();
    const batches: number[] = [];
    const w = new SessionLogWriter(store, created.value.id, { batchSize: 3, onWritten: (i) => batches.push(i.eventCount) });
    for (let i = 1; i <= 7; i++) w.append(ev(i));
    const [a, b] = await Promise.all([w.flush(), w.flush()]);
    expect(a.ok && b.ok).toBe(true);
    const log = await store.load(created.value.id);
    expect(log.ok && log.value.map((e) => (e as TraceEvent).seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(batches[0]).toBe(3); // the first batch went out as soon as it was full
  });

  it('reports a quota failure, keeps the events, stops retrying on its own, and recovers on flush', async () => {
    const clock = new FakeClock();
    const one = JSON.stringify(ev(1)).length;
    const store = new MemorySessionStore({ clock, ids: new SequentialIds(), maxBytes: one * 3 });
    const junk = await store.create({ title: 'old' });
    const created = await store.create({ title: 't' });
    if (!created.ok || !junk.ok) throw new Error();
    await store.append(junk.value.id, [ev(1), ev(2)]);
    const errors: string[] = [];
    const w = new SessionLogWriter(store, created.value.id, { onError: (e, pending) => errors.push(`${e.code}:${pending}`) });
    const mine = [ev(1), ev(2)];
    mine.forEach((e) => w.append(e));
    const r = await w.flush();
    expect(r).toMatchObject({ ok: false, error: { code: 'quota' }, pending: 2 });
    expect(errors).toEqual(['quota:2']);
    expect(mine.map((e) => (e as TraceEvent).seq)).toEqual([1, 2]); // the caller's log is untouched
    w.append(ev(3)); // buffered, not written while stalled
    expect(w.pending).toBe(3);
    expect(w.lastError?.code).toBe('quota');
    await store.delete(junk.value.id);
    expect((await w.flush()).ok).toBe(true);
    const log = await store.load(created.value.id);
    expect(log.ok && log.value.map((e) => (e as TraceEvent).seq)).toEqual([1, 2, 3]);
    expect(w.lastError).toBeNull();
  });
});
