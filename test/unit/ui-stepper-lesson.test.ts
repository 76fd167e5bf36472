import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { decodeScenarioLinkV1, encodeScenarioLink, encodeScenarioLinkV1 } from '../../src/scenarios/codec.ts';
import { builtinScenarios } from '../../src/scenarios/library/index.ts';
import { fromV0 } from '../../src/scenarios/migrate.ts';
import { scenarioV1Schema, type ScenarioV1 } from '../../src/scenarios/schema-v1.ts';
import { holdReason, nextPromptIndex, placeNotes, questionAt, questionFromDraft, questionPlacementWarning } from '../../src/ui/author/lesson-logic.ts';
import { matchBreakpoint, toggleBreakpoint, emptyBreakpoints, TRANSITION_REASONS } from '../../src/ui/stepper/breakpoints.ts';

const stamp = (body: object, seq: number) => ({ seq, t: 0, runId: 'r', agentId: 'main', ...body }) as unknown as TraceEvent;
const userPrompt = (text: string, seq: number) =>
  stamp({ type: 'message.appended', origin: 'user', message: { role: 'user', content: text }, index: 0 }, seq);

describe('breakpoints', () => {
  it('match by event kind, transition reason and tool name, and say which', () => {
    let bp = emptyBreakpoints();
    const stage = stamp({ type: 'permission.stage', toolUseId: 't', stage: 'rules', outcome: 'passthrough' }, 1);
    const trans = stamp({ type: 'transition', reason: 'next_turn' }, 2);
    const bash = stamp({ type: 'tool.proposed', toolUseId: 't', name: 'bash', input: {} }, 3);
    expect([stage, trans, bash].map((e) => matchBreakpoint(bp, e))).toEqual([null, null, null]);
    bp = toggleBreakpoint(bp, 'event', 'permission.stage');
    bp = toggleBreakpoint(bp, 'transition', 'next_turn');
    bp = toggleBreakpoint(bp, 'tool', 'bash');
    expect(matchBreakpoint(bp, stage)?.label).toBe('event permission.stage (rules)');
    expect(matchBreakpoint(bp, trans)).toMatchObject({ kind: 'transition', value: 'next_turn' });
    expect(matchBreakpoint(bp, bash)).toMatchObject({ kind: 'tool', value: 'bash' });
    expect(matchBreakpoint(bp, stamp({ type: 'tool.proposed', toolUseId: 'u', name: 'read', input: {} }, 4))).toBeNull();
    // Toggling again removes; an unknown transition reason is ignored (the schema would refuse it).
    expect(toggleBreakpoint(bp, 'tool', 'bash').tools).toEqual([]);
    expect(toggleBreakpoint(bp, 'transition', 'nonsense')).toBe(bp);
    expect(TRANSITION_REASONS).toContain('completed');
    expect(scenarioV1Schema.shape.breakpoints.parse(bp)).toEqual(bp);
  });
});

describe('lesson logic', () => {
  const q = { atSeq: 3, question: 'Next?', choices: ['a', 'b'], answer: 1, explanation: '' };

  it('places notes by seq and by event type', () => {
    const events = [stamp({ type: 'run.start' }, 1), stamp({ type: 'turn.start' }, 2), stamp({ type: 'turn.start' }, 3)];
    const placed = placeNotes(
      [
        { atSeq: 2, markdown: 'two' },
        { atEventType: 'turn.start', nth: 2, markdown: 'second turn' },
        { atEventType: 'tool.result', markdown: 'not yet' },
      ],
      events,
    );
    expect(placed.map((n) => [n.seq, n.markdown])).toEqual([
      [2, 'two'],
      [3, 'second turn'],
    ]);
  });

  it('shows a question once reached, holds the learner until it is settled', () => {
    expect(questionAt([q], {}, 2)).toBeNull();
    expect(questionAt([q], {}, 3)?.index).toBe(0);
    expect(holdReason([q], {}, 2)).toBeNull();
    expect(holdReason([q], {}, 3)).toMatch(/answer/i);
    expect(holdReason([q], { 0: { chosen: 0, revealed: true, skipped: false } }, 5)).toBeNull();
    expect(holdReason([q], { 0: { chosen: null, revealed: false, skipped: true } }, 5)).toBeNull();
    // Settled and stepped past: no longer shown.
    expect(questionAt([q], { 0: { chosen: 1, revealed: true, skipped: false } }, 4)).toBeNull();
  });

  it('finds the next prompt of a multi-prompt scenario from the prompts sent', () => {
    const prompts = ['first', 'second', 'third'];
    expect(nextPromptIndex(prompts, [])).toBe(0);
    expect(nextPromptIndex(prompts, [userPrompt('first', 1)])).toBe(1);
    expect(nextPromptIndex(prompts, [userPrompt('first', 1), userPrompt('something else', 2), userPrompt('second', 3)])).toBe(2);
    expect(nextPromptIndex(prompts, [userPrompt('first', 1), userPrompt('second', 2), userPrompt('third', 3)])).toBeNull();
  });

  it('builds a question from the editor fields, or says what is missing', () => {
    expect(questionFromDraft({ question: 'Q', choices: 'a\n\n b \n', answer: 1, explanation: ' why ' }, 4)).toEqual({
      ok: true,
      question: { atSeq: 4, question: 'Q', choices: ['a', 'b'], answer: 1, explanation: 'why' },
    });
    expect(questionFromDraft({ question: 'Q', choices: 'a', answer: 0, explanation: '' }, 4).ok).toBe(false);
    expect(questionFromDraft({ question: 'Q', choices: 'a\nb', answer: 2, explanation: '' }, 4).ok).toBe(false);
    expect(questionFromDraft({ question: ' ', choices: 'a\nb', answer: 0, explanation: '' }, 4).ok).toBe(false);
    expect(questionFromDraft({ question: 'Q', choices: 'a\nb', answer: 0, explanation: '' }, 0).ok).toBe(false);
  });
});

describe('v1 share links', () => {
  const base = fromV0(builtinScenarios[0]!);
  const lesson: ScenarioV1 = {
    ...base,
    prompts: [...base.prompts, 'and then?'],
    breakpoints: { eventTypes: ['permission.stage'], transitions: ['completed'], tools: ['bash'] },
    steps: [{ atSeq: 2, markdown: '**look** here' }],
    questions: [{ atSeq: 3, question: 'Next?', choices: ['a', 'b'], answer: 0, explanation: 'because' }],
  };

  it('round-trip a lesson exactly; a v0 link opens migrated', () => {
    expect(decodeScenarioLinkV1(encodeScenarioLinkV1(lesson))).toEqual({ ok: true, scenario: lesson, from: 1 });
    expect(decodeScenarioLinkV1(`#s=${encodeScenarioLink(builtinScenarios[0]!)}`)).toEqual({ ok: true, scenario: base, from: 0 });
  });

  it('carry no field but the schema’s (no API key), and reject garbage with a message', () => {
    const key = 'sk-ant-api03-NEVER';
    const payload = encodeScenarioLinkV1({ ...lesson, apiKey: key } as ScenarioV1);
    const back = decodeScenarioLinkV1(payload);
    expect(back.ok && JSON.stringify(back.scenario)).not.toContain(key);
    for (const bad of ['', '#s=', '!!!', 'AAAA', encodeScenarioLinkV1(lesson).slice(0, 30)]) {
      const r = decodeScenarioLinkV1(bad);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.length).toBeGreaterThan(10);
    }
  });
});

describe('placing a question (author mode)', () => {
  const log = [
    stamp({ type: 'run.start' }, 1),
    stamp({ type: 'model.request', attempt: 1 }, 2),
    stamp({ type: 'tool.result' }, 3),
    stamp({ type: 'transition', reason: 'next_turn' }, 4),
    stamp({ type: 'model.request', attempt: 1 }, 5),
    stamp({ type: 'transition', reason: 'completed' }, 6),
  ];
  const q = (atSeq: number, answer: string) => ({ atSeq, question: 'Next?', choices: ['next_turn', 'completed'], answer: answer === 'next_turn' ? 0 : 1, explanation: '' });

  it('is quiet where the answer is the next transition and not on screen yet', () => {
    expect(questionPlacementWarning(q(3, 'next_turn'), log)).toBeNull();
    expect(questionPlacementWarning(q(5, 'completed'), log)).toBeNull();
    // The future is not known yet (stepping): nothing to say.
    expect(questionPlacementWarning(q(3, 'next_turn'), log.slice(0, 3))).toBeNull();
  });

  it('warns when the event that answers it is already on screen, or the next transition is another', () => {
    expect(questionPlacementWarning(q(4, 'next_turn'), log.slice(0, 4))).toMatch(/Event 4 .*already answers/);
    expect(questionPlacementWarning(q(4, 'next_turn'), log)).toMatch(/next transition after event 4 is “completed”/);
  });
});
