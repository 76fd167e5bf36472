/**
 * Golden cases: recorded from a real session's trace, re-run against the current tools, rules and
 * hooks (a real loop, a real sandbox), pass while nothing changed, fail with a readable diff of
 * the decision and the result after a hook, a rule or a tool changes; the headless command exits
 * non-zero on a failure; cases survive the share link.
 */
import { describe, expect, it } from 'vitest';
import { formatGoldenTable, lineDiff, recordGoldenCase, recordableCalls, runGoldenCases } from '../../src/harness/golden/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { scenarioGoldenEnv } from '../../src/run/golden-env.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { decodeScenarioLink, encodeScenarioLink } from '../../src/scenarios/codec.ts';
import type { Scenario } from '../../src/scenarios/schema.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import { main } from '../../src/cli/run-scenario.ts';
import { runScenario, scenarioWith, shoutTool } from './custom-tools-fixture.ts';

const env = (s: Scenario) => scenarioGoldenEnv(s, { makeSandbox: () => createJustBashSandbox(), trusted: true, toolRunner: createNodeToolRunner() });
const withSettings = (s: Scenario, over: Partial<Scenario['settings']>): Scenario => ({ ...s, settings: { ...s.settings, ...over } });

describe('golden cases', () => {
  const turns = [{ content: [{ type: 'tool_use' as const, name: 'shout', input: { text: 'hey' } }] }, { content: [{ type: 'text' as const, text: 'ok' }] }];
  const base = scenarioWith(turns, { customTools: [shoutTool] });

  it('records a call from a session and passes when nothing changed (the prompt is recorded as ask)', async () => {
    const { events } = await runScenario(base);
    const [call] = recordableCalls(events);
    expect(call).toMatchObject({ name: 'shout', input: { text: 'hey' } });
    const rec = recordGoldenCase({ events, toolUseId: call!.toolUseId, files: {}, existing: [] });
    if (!rec.ok) throw new Error(rec.error);
    // Headless, nobody answers the prompt: the recording keeps "ask", not the denial that followed.
    expect(rec.case.expected).toMatchObject({ decision: 'ask', stage: 'prompt' });
    expect(rec.case.promptAnswer).toBe('none');
    const [same] = await runGoldenCases([rec.case], env(base));
    expect(same).toMatchObject({ pass: true, diffs: [] });
    // The recorded result was the denial; re-run, the prompt is answered "allow once" and the tool runs.
    const withAllow = withSettings(base, { permissions: { allow: ['shout'] } });
    const { events: allowedEvents } = await runScenario(withAllow);
    const allowed = recordGoldenCase({ events: allowedEvents, toolUseId: recordableCalls(allowedEvents)[0]!.toolUseId, files: {}, existing: [rec.case] });
    if (!allowed.ok) throw new Error(allowed.error);
    expect(allowed.case.id).toBe('shout-2');
    expect(allowed.case.expected).toMatchObject({ decision: 'allow', stage: 'rules', content: 'HEY!', isError: false });
    const [outcome] = await runGoldenCases([allowed.case], env(withAllow));
    expect(outcome).toMatchObject({ pass: true, diffs: [] });
  });

  it('fails with a diff of the result after the tool is edited, and of the decision after a rule changes', async () => {
    const withAllow = withSettings(base, { permissions: { allow: ['shout'] } });
    const { events } = await runScenario(withAllow);
    const rec = recordGoldenCase({ events, toolUseId: recordableCalls(events)[0]!.toolUseId, files: {}, existing: [] });
    if (!rec.ok) throw new Error(rec.error);
    const edited = withSettings(withAllow, { customTools: [{ ...withAllow.settings.customTools![0]!, implementation: { kind: 'js', source: 'return input.text;' } }] });
    const [changed] = await runGoldenCases([rec.case], env(edited));
    expect(changed!.pass).toBe(false);
    expect(changed!.diffs).toEqual([{ field: 'content', expected: 'HEY!', actual: 'hey' }]);
    const denied = withSettings(withAllow, { permissions: { allow: ['shout'], ask: ['shout'] } });
    const [asked] = await runGoldenCases([rec.case], env(denied));
    expect(asked!.diffs.map((d) => `${d.field}: ${d.expected} → ${d.actual}`)).toEqual(['decision: allow → ask', 'stage: rules → prompt']);
  });

  it('the built-in lesson catches its hook regression, and the old hook passes', async () => {
    const lesson = findBuiltinScenario('golden-hook-regression')!;
    const cases = lesson.settings.golden!;
    const now = await runGoldenCases(cases, env(lesson));
    expect(now.map((o) => [o.id, o.pass])).toEqual([['rm-denied', false], ['ls-allowed', true]]);
    expect(now[0]!.diffs.find((d) => d.field === 'decision')).toEqual({ field: 'decision', expected: 'deny', actual: 'allow' });
    const table = formatGoldenTable(now);
    expect(table).toContain('FAIL    rm-denied   deny      allow');
    expect(table).toContain('- Permission to use bash was denied (hooks stage)');
    expect(table).toContain('1 passed, 1 failed');
    const hooks = JSON.parse(JSON.stringify(lesson.settings.hooks).replace("'rm -rf'*", 'rm*'));
    const fixed = await runGoldenCases(cases, env(withSettings(lesson, { hooks })));
    expect(fixed.every((o) => o.pass)).toBe(true);
  });

  it('headless: `golden <scenario>` prints the table and exits 1 on a failure, 2 without cases', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) };
    expect(await main(['golden', 'golden-hook-regression'], io)).toBe(1);
    expect(out.join('')).toMatch(/FAIL\s+rm-denied/);
    expect(await main(['golden', 'fix-a-bug'], io)).toBe(2);
    expect(err.join('')).toContain('fix-a-bug has no golden cases');
    expect(await main(['golden', 'a', 'b'], io)).toBe(2);
  });

  it('a case that cannot run says why, and cases survive the share link', async () => {
    const lesson = findBuiltinScenario('golden-hook-regression')!;
    const broken = { ...lesson.settings.golden![1]!, id: 'gone', tool: 'no_such_tool' };
    const [o] = await runGoldenCases([broken], env(lesson));
    expect(o!.pass).toBe(false);
    expect(o!.actual).toMatchObject({ stage: 'validate', isError: true });
    const back = decodeScenarioLink(encodeScenarioLink(lesson));
    expect(back.ok && back.scenario.settings.golden).toEqual(lesson.settings.golden);
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
  });
});
