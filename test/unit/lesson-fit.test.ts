import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { lessonFit } from '../../src/ui/author/lesson-fit.ts';
import { holdReason, questionAt } from '../../src/ui/author/lesson-logic.ts';

const stamp = (body: object, seq: number) => ({ seq, t: 0, runId: 'r', agentId: 'main', ...body }) as unknown as TraceEvent;
const start = (modelClient: string) => stamp({ type: 'run.start', model: 'claude-x', modelClient, sandbox: 'just-bash', tools: [], maxTurns: 5 }, 1);
const prompt = (text: string, seq: number) => stamp({ type: 'message.appended', origin: 'user', message: { role: 'user', content: text }, index: 0 }, seq);

const doc = { prompts: ['Fix the bug.'], steps: [] };

describe('whether a run is the replay a lesson was written for', () => {
  it('a scripted run of the lesson’s own prompts fits all the way', () => {
    expect(lessonFit(doc, [start('scripted'), prompt('Fix the bug.', 2), stamp({ type: 'turn.start' }, 3)])).toEqual({ upTo: null, why: null });
  });

  it('a live model, an own prompt or a diverged replay stop it at that event, and say why', () => {
    const live = lessonFit(doc, [start('anthropic'), prompt('Fix the bug.', 2)]);
    expect(live.upTo).toBe(0);
    expect(live.why).toMatch(/live model/);
    const own = lessonFit(doc, [start('scripted'), prompt('Write me a poem.', 2)]);
    expect(own).toMatchObject({ upTo: 1 });
    expect(own.why).toMatch(/prompt is not the lesson’s/);
    const more = lessonFit(doc, [start('scripted'), prompt('Fix the bug.', 2), prompt('And another thing.', 3)]);
    expect(more.upTo).toBe(2);
    const diverged = lessonFit(doc, [start('scripted'), prompt('Fix the bug.', 2), stamp({ type: 'replay.diverged' }, 3)]);
    expect(diverged.upTo).toBe(2);
    expect(diverged.why).toMatch(/diverged/);
  });

  it('the lesson’s own queued messages, and a divergence it is about, are its script', () => {
    const steered = { ...doc, settings: { steering: [{ message: 'Skip the changelog.' }] } };
    expect(lessonFit(steered, [start('scripted'), prompt('Fix the bug.', 2), prompt('Skip the changelog.', 3)]).upTo).toBeNull();
    const about = { ...doc, steps: [{ atEventType: 'replay.diverged', markdown: 'It diverged.' }] };
    expect(lessonFit(about, [start('scripted'), prompt('Fix the bug.', 2), stamp({ type: 'replay.diverged' }, 3)]).upTo).toBeNull();
  });

  it('questions past the fit are neither shown nor held at', () => {
    const q = { atSeq: 3, question: 'Next?', choices: ['a', 'b'], answer: 1, explanation: '' };
    expect(holdReason([q], {}, 3, null)).toMatch(/answer/i);
    expect(holdReason([q], {}, 3, 2)).toBeNull();
    expect(questionAt([q], {}, 3, 2)).toBeNull();
    expect(questionAt([q], {}, 3, 3)?.index).toBe(0);
  });

});
