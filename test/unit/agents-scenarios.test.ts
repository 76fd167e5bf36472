/**
 * The agents scenarios run headless as the CLI runs them (real just-bash, built-in skills from the
 * repo), complete with a valid transcript, show their mechanism, and every "predict the next
 * transition" question is answered by the transition that really follows its step.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, checkTranscript, FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs, findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { nodeSkillLoader } from '../../src/skills-bundle/node.ts';

async function run(id: string) {
  const scenario = findBuiltinScenario(id)!;
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, skillFiles: await nodeSkillLoader()() });
  const events: TraceEvent[] = [];
  const loop = agentLoop(input, deps);
  let step = await loop.next();
  while (!step.done) {
    events.push(step.value);
    step = await loop.next();
  }
  return { events, result: step.value, sandbox };
}

const types = (events: TraceEvent[], t: string) => events.filter((e) => e.type === t);

describe.each(['skill-on-demand', 'task-graph', 'background-tests', 'steering-mid-run'])('scenario %s', (id) => {
  it('completes with a valid transcript, and its questions predict what follows', async () => {
    const { events, result, sandbox } = await run(id);
    expect(result.reason).toBe('completed');
    expect(checkTranscript(result.messages)).toEqual([]);
    const doc = builtinDocs.find((d) => d.id === id)!;
    expect(doc.questions.length).toBeGreaterThan(0);
    expect(doc.steps.length).toBeGreaterThan(0);
    for (const q of doc.questions) {
      const next = events.find((e) => e.seq > q.atSeq && e.type === 'transition') as Extract<TraceEvent, { type: 'transition' }>;
      expect(next.reason).toBe(q.choices[q.answer]);
    }
    for (const s of doc.steps) if (s.atEventType) expect(types(events, s.atEventType).length).toBeGreaterThanOrEqual(s.nth ?? 1);
    const tools = events.filter((e) => e.type === 'tool.result' && e.isError);
    if (id === 'skill-on-demand') {
      expect(types(events, 'skill.loaded')).toHaveLength(1);
      const listed = types(events, 'skills.available')[0] as Extract<TraceEvent, { type: 'skills.available' }>;
      expect(listed.skills.map((s) => `${s.name}:${s.origin}`)).toContain('cart-conventions:scenario');
      expect(tools).toHaveLength(0);
    }
    if (id === 'task-graph') {
      expect(tools).toHaveLength(1);
      const files = await sandbox.fs.list(`${sandbox.workdir}/.tasks`);
      expect(files.map((f) => f.name)).toEqual(['1.json', '2.json', '3.json']);
      expect(await sandbox.fs.readFile(`${sandbox.workdir}/README.md`)).toContain('--verbose');
    }
    if (id === 'background-tests') expect(types(events, 'background.notification')).toHaveLength(1);
    if (id === 'steering-mid-run') {
      expect(types(events, 'interrupt.received')).toHaveLength(2);
      expect(await sandbox.fs.readFile(`${sandbox.workdir}/CHANGELOG.md`)).not.toContain('1.2');
    }
    await sandbox.dispose();
  });
});
