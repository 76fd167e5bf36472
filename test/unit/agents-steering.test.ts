/**
 * Steering against the real loop: a message queued while the agent works is delivered at the
 * next safe point (after the tool results, before the next model call) as `interrupt.received`
 * and user text; one queued when the model stops keeps the run going (`steering_message`).
 */
import { describe, expect, it } from 'vitest';
import { agents, checkTranscript } from '../../src/harness/index.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

describe('steering', () => {
  it('a message queued during a tool call reaches the next model call, after the tool results', async () => {
    const queue = new agents.SteeringQueue();
    const { input, deps, client } = await setup(
      [
        { content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] },
        { content: [{ type: 'text', text: 'Understood, only a.txt then.' }] },
      ],
      { files: { 'a.txt': 'alpha\n' }, input: { steering: queue } },
    );
    const loop = (await import('../../src/harness/index.ts')).agentLoop(input, deps);
    const events = [];
    let step = await loop.next();
    while (!step.done) {
      events.push(step.value);
      // Typed while the read runs.
      if (step.value.type === 'tool.started') queue.push('Only look at a.txt, nothing else.');
      step = await loop.next();
    }
    const received = ofType(events, 'interrupt.received');
    expect(received).toEqual([expect.objectContaining({ text: 'Only look at a.txt, nothing else.', source: 'user', beforeTurn: 2 })]);
    const at = events.indexOf(received[0]!);
    expect(at).toBeGreaterThan(events.findIndex((e) => e.type === 'tool.result'));
    expect(at).toBeLessThan(events.findIndex((e) => e.type === 'model.request' && e.turn === 2));
    const sent = client.requests[1]!.messages.at(-1)!.content as { type: string; text?: string }[];
    expect(sent.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(sent[1]!.text).toContain('Only look at a.txt');
    expect(queue.pending).toEqual([]);
    expect(transitions(events)).toEqual(['next_turn', 'completed']);
    expect(checkTranscript(step.value.messages)).toEqual([]);
  });

  it('a scripted message due when the model stops keeps the run going', async () => {
    const { input, deps, client } = await setup(
      [
        { content: [{ type: 'text', text: 'I wrote the summary.' }] },
        { content: [{ type: 'text', text: 'Added the date as well.' }] },
      ],
      { input: { steering: agents.scriptedSteering([{ beforeTurn: 2, message: 'Also add the date.' }]) } },
    );
    const { events, result } = await drain(input, deps);
    expect(transitions(events)).toEqual(['steering_message', 'completed']);
    expect(ofType(events, 'interrupt.received')[0]).toMatchObject({ source: 'scenario', beforeTurn: 2 });
    expect(client.requests).toHaveLength(2);
    expect(client.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(result.reason).toBe('completed');
  });

  it('the queue is still bounded by maxTurns', async () => {
    const queue = new agents.SteeringQueue();
    queue.push('keep going');
    const { input, deps } = await setup([{ content: [{ type: 'text', text: 'done' }] }], { input: { steering: queue, maxTurns: 1 } });
    const { result } = await drain(input, deps);
    expect(result.reason).toBe('max_turns');
  });
});

describe('parseSteerFile', () => {
  it('one message per safe point, @N pins one, comments and blanks skipped, errors with line numbers', () => {
    const r = agents.parseSteerFile('# steer\nfirst\n\n@5 pinned\nafter pinned\n@x bad\n@1 too early\n');
    expect(r.steers).toEqual([
      { beforeTurn: 2, message: 'first' },
      { beforeTurn: 5, message: 'pinned' },
      { beforeTurn: 6, message: 'after pinned' },
    ]);
    expect(r.errors).toEqual([expect.stringMatching(/^line 6: /), expect.stringMatching(/^line 7: .*use 2 or more/)]);
  });
});
