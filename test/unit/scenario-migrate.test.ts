import { describe, expect, it } from 'vitest';
import { builtinScenarios } from '../../src/scenarios/library/index.ts';
import { migrateScenario, skillPath, toRunnableScenario } from '../../src/scenarios/migrate.ts';
import type { ScenarioV1Input } from '../../src/scenarios/schema-v1.ts';

const v0 = {
  id: 'hello',
  title: 'Hello',
  prompt: 'Say hi',
  files: { 'a.txt': 'A' },
  model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'hi' }] }] },
};

const v1: ScenarioV1Input = {
  version: 1,
  id: 'lesson',
  title: 'A lesson',
  prompts: ['First', 'Then this'],
  files: { 'src/x.ts': 'x' },
  skills: { 'pdf-tools': '---\nname: pdf-tools\ndescription: PDFs\n---\nBody' },
  memoryFiles: { 'CLAUDE.md': '# Rules\nBe brief.' },
  model: { kind: 'recorded', turns: [{ content: [{ type: 'tool_use', id: 'toolu_01A', name: 'bash', input: { command: 'ls' } }] }], recordedAt: '2026-11-29T10:00:00Z', modelId: 'claude-sonnet-4-5' },
  breakpoints: { eventTypes: ['permission.stage'], transitions: ['next_turn'], tools: ['bash'] },
  steps: [
    { atSeq: 3, markdown: 'Look at the **request**.' },
    { atEventType: 'compaction.layer', nth: 2, markdown: 'The second layer.' },
  ],
  questions: [{ atSeq: 10, question: 'What comes next?', choices: ['next_turn', 'completed'], answer: 0, explanation: 'A tool was called.' }],
};

describe('migrateScenario', () => {
  it('lifts v0 (with or without a version field) to v1', () => {
    for (const doc of [v0, { ...v0, version: 0 }]) {
      const r = migrateScenario(doc);
      if (!r.ok) throw new Error(r.errors.join());
      expect(r.from).toBe(0);
      expect(r.scenario).toMatchObject({ version: 1, id: 'hello', prompts: ['Say hi'], files: { 'a.txt': 'A' }, skills: {}, memoryFiles: {}, steps: [], questions: [] });
      expect(r.scenario.breakpoints).toEqual({ eventTypes: [], transitions: [], tools: [] });
      expect(r.scenario.settings.maxTurns).toBe(20);
    }
  });

  it('migrates every built-in scenario', () => {
    for (const s of builtinScenarios) {
      const r = migrateScenario(s);
      expect(r.ok, s.id).toBe(true);
    }
  });

  it('reads v1 as it is', () => {
    const r = migrateScenario(v1);
    if (!r.ok) throw new Error(r.errors.join());
    expect(r.from).toBe(1);
    expect(r.scenario.model.kind).toBe('recorded');
    expect(r.scenario.steps[1]).toEqual({ atEventType: 'compaction.layer', nth: 2, markdown: 'The second layer.' });
    expect(r.scenario.questions[0]!.answer).toBe(0);
  });

  it.each([
    ['a newer version', { ...v1, version: 2 }, /format version 2.*reads versions 0 to 1/],
    ['a version that is not a number', { ...v1, version: '1' }, /not a scenario version/],
    ['a negative version', { ...v1, version: -1 }, /not a scenario version/],
    ['not an object', [v1], /a scenario is a JSON object/],
    ['v1 without prompts', { ...v1, prompts: [] }, /prompts/],
    ['a v0 field in v1', { ...v1, prompt: 'x' }, /prompt/],
    ['an answer outside the choices', { ...v1, questions: [{ atSeq: 1, question: 'q', choices: ['a', 'b'], answer: 2 }] }, /questions\.0\.answer: answer must be the index/],
    ['a step with both positions', { ...v1, steps: [{ atSeq: 1, atEventType: 'x', markdown: 'm' }] }, /exactly one of atSeq or atEventType/],
    ['an unknown transition breakpoint', { ...v1, breakpoints: { transitions: ['teleport'] } }, /breakpoints\.transitions/],
    ['a memory file outside the project', { ...v1, memoryFiles: { '../CLAUDE.md': 'x' } }, /memoryFiles/],
    ['a bad skill name', { ...v1, skills: { 'Bad Name': 'x' } }, /skills/],
    ['a recorded model without turns', { ...v1, model: { kind: 'recorded', turns: [], recordedAt: 'x', modelId: 'm' } }, /model/],
    ['a broken v0', { ...v0, prompt: '' }, /prompt/],
  ])('rejects %s', (_name, doc, message) => {
    const r = migrateScenario(doc);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(message);
  });
});

describe('toRunnableScenario', () => {
  it('gives prepareRun a v0 scenario: chosen prompt, memory files and skills as files, recorded → scripted', () => {
    const r = migrateScenario(v1);
    if (!r.ok) throw new Error();
    const run = toRunnableScenario(r.scenario, 1);
    expect(run.prompt).toBe('Then this');
    expect(run.files).toEqual({ 'src/x.ts': 'x', 'CLAUDE.md': '# Rules\nBe brief.', [skillPath('pdf-tools')]: v1.skills!['pdf-tools'] });
    expect(run.model).toEqual({ kind: 'scripted', turns: [{ content: [{ type: 'tool_use', id: 'toolu_01A', name: 'bash', input: { command: 'ls' } }] }] });
    expect(() => toRunnableScenario(r.scenario, 2)).toThrow(/no prompt 3/);
  });
});
