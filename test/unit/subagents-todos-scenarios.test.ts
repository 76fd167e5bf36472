/**
 * The agent scenarios, run the way the app and the headless runner run them (`prepareRun`): they
 * complete offline, show what they teach, and every "predict the next transition" question sits
 * right before a transition whose reason is the question's answer.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, checkTranscript, type TraceEvent } from '../../src/harness/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { builtinDocs, findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { historyOf, run } from './agents-fixture.ts';
import { ofType } from '../helpers/events.ts';

async function runBuiltin(id: string) {
  const scenario = findBuiltinScenario(id)!;
  const sandbox = await createJustBashSandbox({ files: {} });
  const prepared = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  return { ...(await run(prepared)), sandbox };
}


describe('agent scenarios', () => {
  for (const id of ['plan-with-todos', 'delegate-parallel-subagents', 'custom-subagent']) {
    it(`${id}: completes, every transcript is valid, and its question precedes the transition it asks about`, async () => {
      const { events, result } = await runBuiltin(id);
      expect(result.reason).toBe('completed');
      for (const agent of new Set(events.map((e) => e.agentId))) expect(checkTranscript(historyOf(events, agent)), agent).toEqual([]);
      const doc = builtinDocs.find((d) => d.id === id)!;
      expect(doc.questions.length).toBeGreaterThan(0);
      expect(doc.steps.length).toBeGreaterThan(0);
      for (const q of doc.questions) {
        const next = events[q.atSeq]!; // the event after position atSeq (1-based)
        expect(next.type, q.question).toBe('transition');
        expect(next.type === 'transition' && next.reason).toBe(q.choices[q.answer]);
      }
      // Every step note's event exists in the run.
      for (const s of doc.steps) if (s.atEventType) expect(ofType(events, s.atEventType as TraceEvent['type']).length, s.markdown).toBeGreaterThanOrEqual(s.nth ?? 1);
    });
  }

  it('plan-with-todos: the plan, the refused double in_progress, the reminder, and a finished list', async () => {
    const { events, sandbox } = await runBuiltin('plan-with-todos');
    const updates = ofType(events, 'todo.updated');
    expect(updates.at(-1)!.todos.every((t) => t.status === 'completed')).toBe(true);
    expect(ofType(events, 'tool.result').some((r) => r.name === 'todo_write' && r.isError && /Only one todo/.test(r.content))).toBe(true);
    expect(ofType(events, 'todo.reminder').map((r) => r.why)).toEqual(['stale']);
    expect(await sandbox.fs.readFile('/home/project/src/math.sh')).toContain('sum() {');
  });

  it('delegate-parallel-subagents: two children overlap, and results return in call order', async () => {
    const { events, result } = await runBuiltin('delegate-parallel-subagents');
    const starts = ofType(events, 'subagent.start');
    expect(starts.map((s) => s.description)).toEqual(['find the settings', 'find the logs']);
    const firstStop = events.findIndex((e) => e.type === 'subagent.stop');
    expect(events.indexOf(starts[1]!)).toBeLessThan(firstStop);
    const results = result.messages[2]!.content as { content: string }[];
    expect(results[0]!.content).toMatch(/^Settings are read/);
    expect(results[1]!.content).toMatch(/^Logs are written/);
  });

  it('custom-subagent: the definition shapes the child; the broken file is named with its line', async () => {
    const { events } = await runBuiltin('custom-subagent');
    const tool = ofType(events, 'model.request')[0]!.request.tools!.find((t) => t.name === 'agent')!;
    expect(tool.description).toContain('- test-runner: Runs the project');
    expect(tool.description).toContain('.claude/agents/broken.md:4: maxTurns: expected number');
    const start = ofType(events, 'subagent.start')[0]!;
    expect(start).toMatchObject({ subagentType: 'test-runner', tools: ['bash', 'read'], maxTurns: 4 });
    const childReq = ofType(events, 'model.request').find((r) => r.agentId === start.childAgentId)!;
    expect(JSON.stringify(childReq.request.system)).toContain('You run tests.');
  });
});
