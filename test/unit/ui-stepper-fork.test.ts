import { describe, expect, it } from 'vitest';
import { agentLoop, type TraceEvent } from '../../src/harness/index.ts';
import { forkWithToolInputs, forkWithUserText, pendingAt, takeOverHistory } from '../../src/ui/stepper/fork.ts';
import { replayFirst } from '../../src/ui/stepper/replay-first-client.ts';
import { drain, setup } from './loop-helpers.ts';

const turns = [
  {
    content: [
      { type: 'text' as const, text: 'Let me look.' },
      { type: 'tool_use' as const, name: 'bash', input: { command: 'echo original' } },
    ],
  },
  { content: [{ type: 'text' as const, text: 'All done.' }] },
];

/** Pull events until one of type `stop` (inclusive). */
async function pullUntil(gen: AsyncGenerator<TraceEvent, unknown>, stop: TraceEvent['type']): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for (;;) {
    const r = await gen.next();
    if (r.done) throw new Error(`the run ended before ${stop}`);
    events.push(r.value);
    if (r.value.type === stop) return events;
  }
}

describe('editing a tool input at tool.proposed, as a fork', () => {
  it('runs the edited command, then the script continues where it was', async () => {
    const s = await setup(turns);
    const gen = agentLoop(s.input, s.deps);
    const events = await pullUntil(gen, 'tool.proposed');
    const pending = pendingAt(events);
    expect(pending?.kind).toBe('tool');
    const call = pending?.kind === 'tool' ? pending.calls[0]! : null;
    expect(call?.input).toEqual({ command: 'echo original' });
    await gen.return(undefined as never);

    const plan = forkWithToolInputs(events, new Map([[call!.toolUseId, { command: 'echo edited' }]]), 'e1');
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.history.at(-1)?.role).toBe('user');
    const model = replayFirst(plan.replayFirst!, s.client);
    const { events: forked, result } = await drain({ ...s.input, messages: plan.history }, { ...s.deps, model });
    const results = forked.filter((e) => e.type === 'tool.result');
    expect(results).toHaveLength(1);
    expect(results[0]!.type === 'tool.result' && results[0]!.content).toContain('edited');
    expect(JSON.stringify(forked)).not.toContain('original\\n');
    // The edited call has its own id, so the trace tells it from the original.
    const proposed = forked.find((e) => e.type === 'tool.proposed');
    expect(proposed?.type === 'tool.proposed' && proposed.toolUseId).toBe(`${call!.toolUseId}_e1`);
    expect(result.reason).toBe('completed');
    expect(JSON.stringify(result.messages.at(-1))).toContain('All done.');
    expect(s.client.remaining()).toBe(0);
  });

  it('refuses when nothing was edited or no reply is pending', async () => {
    const s = await setup(turns);
    const events = await pullUntil(agentLoop(s.input, s.deps), 'tool.proposed');
    expect(forkWithToolInputs(events, new Map(), 'x').ok).toBe(false);
    expect(forkWithToolInputs(events.slice(0, 2), new Map([['a', {}]]), 'x').ok).toBe(false);
  });
});

describe('editing the last user message at model.request', () => {
  it('sends the edited message to the model', async () => {
    const s = await setup(turns, { prompt: 'Original question' });
    const gen = agentLoop(s.input, s.deps);
    const events = await pullUntil(gen, 'model.request');
    expect(pendingAt(events)).toEqual({ kind: 'request', text: 'Original question' });
    await gen.return(undefined as never);
    // The request was yielded but never sent: the script has not moved.
    expect(s.client.remaining()).toBe(2);

    const plan = forkWithUserText(events, 'Edited question');
    if (!plan.ok) throw new Error(plan.error);
    await drain({ ...s.input, messages: plan.history }, s.deps);
    const first = JSON.stringify(s.client.requests[0]!.messages);
    expect(first).toContain('Edited question');
    expect(first).not.toContain('Original question');
    expect(forkWithUserText(events, '   ').ok).toBe(false);
  });
});

describe('take over', () => {
  it('closes calls with no result and continues at once; after a finished answer it waits for a prompt', async () => {
    const s = await setup(turns);
    const events = await pullUntil(agentLoop(s.input, s.deps), 'tool.proposed');
    const mid = takeOverHistory(events);
    expect(mid.continueNow).toBe(true);
    expect(JSON.stringify(mid.history.at(-1))).toContain('tool_result');

    const s2 = await setup(turns);
    const { events: all } = await drain(s2.input, s2.deps);
    const end = takeOverHistory(all);
    expect(end.continueNow).toBe(false);
    expect(end.history.at(-1)?.role).toBe('assistant');
  });
});
