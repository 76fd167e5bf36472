/**
 * The UI's views over the trace (conversation, diagram stage, event summaries, usage, notes),
 * checked against real runs of the built-in scenarios: scripted model, just-bash, FakeClock.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { summarize } from '../../src/ui/events/summary.ts';
import { parseInline, parseNotes } from '../../src/ui/lib/markdown.ts';
import { deriveConversation, type ConversationItem } from '../../src/ui/state/conversation.ts';
import { captionOf, stageOf } from '../../src/ui/state/stage.ts';
import { deriveUsage } from '../../src/ui/state/usage.ts';

async function trace(id: string, prompt?: string): Promise<TraceEvent[]> {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, prompt, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const events: TraceEvent[] = [];
  const gen = agentLoop(input, deps);
  for (let r = await gen.next(); !r.done; r = await gen.next()) events.push(r.value);
  await sandbox.dispose();
  return events;
}

const tools = (items: ConversationItem[]) =>
  items.flatMap((i) => (i.kind === 'tool' ? [i.call] : []));

describe('deriveConversation', () => {
  it('shows fix-a-bug as prompt, replies and four finished tool calls with their results', async () => {
    const events = await trace('fix-a-bug');
    const items = deriveConversation(events);
    expect(items[0]).toMatchObject({ kind: 'user', origin: 'user', text: 'test.sh fails. Find the bug and fix it.' });
    const calls = tools(items);
    expect(calls.map((c) => c.name)).toEqual(['bash', 'read', 'edit', 'bash']);
    expect(calls.every((c) => typeof c.result === 'string')).toBe(true);
    // The failing check exits non-zero: an error result, styled as one.
    expect(calls.map((c) => c.status)).toEqual(['error', 'done', 'done', 'done']);
    expect(calls[0]!.result).toContain('FAIL: expected 60, got -60');
    expect(calls[3]!.result).toContain('PASS: total is 60');
    // Settled: nothing streams, and the run ends with one end note.
    expect(items.some((i) => i.kind === 'assistant' && i.streaming)).toBe(false);
    expect(items.at(-1)).toMatchObject({ kind: 'end', reason: 'completed' });
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });

  it('streams text while the model replies, before the message is appended', async () => {
    const events = await trace('fix-a-bug');
    const firstText = events.findIndex((e) => e.type === 'model.delta' && e.delta.kind === 'text');
    const appended = events.findIndex((e) => e.type === 'message.appended' && e.origin === 'assistant');
    expect(firstText).toBeGreaterThan(0);
    const early = deriveConversation(events.slice(0, firstText + 1)).at(-1);
    const later = deriveConversation(events.slice(0, appended)).filter((i) => i.kind === 'assistant').at(-1);
    expect(early).toMatchObject({ kind: 'assistant', streaming: true });
    expect(later).toMatchObject({ kind: 'assistant', streaming: true });
    if (early?.kind !== 'assistant' || later?.kind !== 'assistant') throw new Error('unreachable');
    expect(later.text.startsWith(early.text)).toBe(true);
    expect(later.text.length).toBeGreaterThan(early.text.length);
  });

  it('marks a tool running between tool.started and tool.result', async () => {
    const events = await trace('fix-a-bug');
    const started = events.findIndex((e) => e.type === 'tool.started');
    const calls = tools(deriveConversation(events.slice(0, started + 1)));
    expect(calls.at(-1)?.status).toBe('running');
    expect(calls.at(-1)?.result).toBeUndefined();
  });

  it('folds the retries of one failing model call into a single error card', async () => {
    const events = await trace('flaky-model');
    const errors = events.filter((e) => e.type === 'model.error');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    const cards = deriveConversation(events).filter((i) => i.kind === 'error');
    expect(cards.length).toBeLessThan(errors.length);
    expect(cards[0]).toMatchObject({ kind: 'error', attempt: expect.any(Number) });
  });
});

describe('stageOf / captionOf / summarize', () => {
  it('maps every event of a run to a diagram node and a non-empty caption and summary', async () => {
    const events = [...(await trace('parallel-exploration')), ...(await trace('max-tokens-recovery'))];
    for (const e of events) {
      expect(captionOf(e).length, e.type).toBeGreaterThan(0);
      expect(summarize(e).length, e.type).toBeGreaterThan(0);
    }
    const stage = (type: string) => new Set(events.filter((e) => e.type === type).map(stageOf));
    expect(stage('model.request')).toEqual(new Set(['model']));
    expect(stage('model.response')).toEqual(new Set(['model']));
    expect(stage('context.assembled')).toEqual(new Set(['context']));
    expect(stage('tool.proposed')).toEqual(new Set(['permission']));
    expect(stage('tool.started')).toEqual(new Set(['tools']));
    expect(stage('tool.result')).toEqual(new Set(['tools']));
    expect(stage('turn.start')).toEqual(new Set(['loop']));
  });

  it('maps event groups from later layers by prefix', () => {
    const meta = { seq: 1, ts: 1, agentId: 'main', turn: 1 };
    const as = (type: string) => ({ ...meta, type }) as unknown as TraceEvent;
    expect(stageOf(as('permission.stage'))).toBe('permission');
    expect(stageOf(as('hook.run'))).toBe('hooks');
    expect(stageOf(as('compaction.layer'))).toBe('context');
    expect(stageOf(as('memory.injected'))).toBe('memory');
  });
});

describe('deriveUsage', () => {
  it('equals the run.end usage for one run, and sums two runs', async () => {
    const events = await trace('fix-a-bug');
    const end = events.at(-1);
    if (end?.type !== 'run.end') throw new Error('last event is not run.end');
    expect(deriveUsage(events)).toEqual(end.usage);
    expect(deriveUsage([...events, ...events]).input_tokens).toBe(2 * end.usage.input_tokens);
  });
});

describe('notes', () => {
  it('keeps markup as text and understands the small markdown subset', () => {
    const blocks = parseNotes('# Title\n\nSome **bold** and `<script>alert(1)</script>`.\n\n- one\n- two\n\n```\ncode <b>\n```');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'para', 'list', 'code']);
    expect(blocks[1]).toEqual({
      kind: 'para',
      inline: [
        { kind: 'text', text: 'Some ' },
        { kind: 'strong', text: 'bold' },
        { kind: 'text', text: ' and ' },
        { kind: 'code', text: '<script>alert(1)</script>' },
        { kind: 'text', text: '.' },
      ],
    });
    expect(blocks[3]).toEqual({ kind: 'code', text: 'code <b>' });
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });
});
