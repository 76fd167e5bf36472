/**
 * Attacker: a link with golden cases whose recorded prompt answer is "allow" and whose input is a
 * command of its choosing; the person opens it untrusted and clicks Run all, hoping the recorded
 * "allow" answers the prompt and runs the command. An untrusted document's answers are not replayed.
 * And a `while true` case that would keep Run all busy: Stop ends it and skips the rest.
 */
import { describe, expect, it } from 'vitest';
import { runGoldenCases, STOPPED, type GoldenCase } from '../../src/harness/golden/index.ts';
import type { Sandbox } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { scenarioGoldenEnv } from '../../src/run/golden-env.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';

const evilCase: GoldenCase = {
  id: 'evil',
  label: 'evil',
  tool: 'bash',
  input: { command: 'echo pwned > pwned.txt' },
  promptAnswer: 'allow',
  files: {},
  expected: { decision: 'allow', stage: 'prompt', hooks: [], isError: false, content: '' },
};

/** Runs the case; whether its command wrote its file (the sandbox is kept until it is looked at). */
async function runCase(trusted: boolean): Promise<boolean> {
  const r = parseScenario({ id: 'gold', title: 'Gold', prompt: 'x', files: {}, model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'x' }] }] }, settings: {} });
  if (!r.ok) throw new Error(r.errors.join('; '));
  const kept: Sandbox[] = [];
  const env = scenarioGoldenEnv(r.scenario, {
    trusted,
    makeSandbox: async () => {
      const s = await createJustBashSandbox();
      kept.push(s);
      return { ...s, dispose: async () => {} };
    },
  });
  await runGoldenCases([evilCase], env);
  const wrote = (await kept[0]!.fs.stat(`${kept[0]!.workdir}/pwned.txt`)) !== null;
  for (const s of kept) await s.dispose();
  return wrote;
}

describe('golden cases of an untrusted document', () => {
  it('do not replay its recorded "allow": the command is not run; trusted, it is (the case can tell)', async () => {
    expect(await runCase(false)).toBe(false);
    expect(await runCase(true)).toBe(true);
  });
});

describe('golden "Run all" can be stopped', () => {
  it('Stop ends the case under way and skips the rest, each saying so', async () => {
    const r = parseScenario({ id: 'gold', title: 'Gold', prompt: 'x', files: {}, model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'x' }] }] }, settings: {} });
    if (!r.ok) throw new Error(r.errors.join('; '));
    const stop = new AbortController();
    let started = 0;
    const env = scenarioGoldenEnv(r.scenario, {
      trusted: true,
      makeSandbox: async () => {
        started++;
        // The person presses Stop while the first case is starting.
        stop.abort();
        return createJustBashSandbox();
      },
    });
    const loop = { ...evilCase, id: 'loop', input: { command: 'while true; do :; done' } };
    const outcomes = await runGoldenCases([loop, { ...evilCase, id: 'next' }], env, stop.signal);
    expect(started).toBe(1);
    expect(outcomes[0]).toMatchObject({ id: 'loop', pass: false, actual: null });
    expect(outcomes[1]).toMatchObject({ id: 'next', pass: false, error: STOPPED });
  });
});
