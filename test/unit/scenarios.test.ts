import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs, builtinScenarios, findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { loadBuiltinDoc } from '../../src/scenarios/library/by-id.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';
import { drain, ofType, transitions } from './loop-helpers.ts';

async function runBuiltin(id: string) {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const run = await drain(input, deps);
  return { ...run, sandbox };
}

describe('built-in scenarios', () => {
  it('ship at least the three the walking skeleton needs, each valid', () => {
    const ids = builtinScenarios.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['parallel-exploration', 'fix-a-bug', 'max-tokens-recovery']));
    for (const s of builtinScenarios) expect(parseScenario(JSON.parse(JSON.stringify(s))).ok).toBe(true);
  });

  it('every built-in loads alone by id (its file name), equal to the library entry; other names do not', async () => {
    for (const doc of builtinDocs) expect(await loadBuiltinDoc(doc.id)).toEqual(doc);
    for (const bad of ['no-such-lesson', '../index', 'Fix-A-Bug', '']) expect(await loadBuiltinDoc(bad)).toBeUndefined();
  });

  it('parallel-exploration runs glob, grep and read together in one turn', async () => {
    const { events, result } = await runBuiltin('parallel-exploration');
    expect(result.reason).toBe('completed');
    const firstTurn = ofType(events, 'tool.started').filter((e) => e.turn === 1);
    expect(firstTurn.map((e) => e.name)).toEqual(['glob', 'grep', 'read']);
    expect(firstTurn.every((e) => e.concurrent)).toBe(true);
    const grep = ofType(events, 'tool.result').find((e) => e.name === 'grep')!;
    expect(grep.content).toContain('src/db.ts');
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('fix-a-bug reads, edits and re-runs the check, leaving the fixed file', async () => {
    const { events, result, sandbox } = await runBuiltin('fix-a-bug');
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'tool.started').map((e) => e.name)).toEqual(['bash', 'read', 'edit', 'bash']);
    const results = ofType(events, 'tool.result');
    expect(results[0]!.content).toContain('FAIL: expected 60, got -60');
    expect(results[3]!.content).toContain('PASS: total is 60');
    expect(await sandbox.fs.readFile('/home/project/calc.sh')).toContain('total=$((total + n))');
  });

  it('max-tokens-recovery continues through the max_output_tokens_recovery site', async () => {
    const { events, result, sandbox } = await runBuiltin('max-tokens-recovery');
    expect(transitions(events)[0]).toBe('max_output_tokens_recovery');
    expect(result.reason).toBe('completed');
    expect(await sandbox.fs.readFile('/home/project/CHANGELOG.md')).toContain('### Breaking changes');
  });

  it('flaky-model retries and recovers from malformed tool input', async () => {
    const { events, result, sandbox } = await runBuiltin('flaky-model');
    expect(transitions(events)).toEqual(['model_retry', 'model_retry', 'malformed_tool_use_retry', 'next_turn', 'completed']);
    expect(result.reason).toBe('completed');
    expect(await sandbox.fs.readFile('/home/project/hello.txt')).toBe('Hello, world!\n');
  });
});

describe('scenario schema', () => {
  const base = {
    id: 'x',
    title: 'X',
    prompt: 'p',
    model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'hi' }] }] },
  };

  it('fills defaults', () => {
    const r = parseScenario(base);
    expect(r.ok && r.scenario.settings).toEqual({ maxTurns: 20, maxTokens: 4096, sandbox: 'just-bash' });
  });

  it.each([
    [{ ...base, files: { '/etc/passwd': 'x' } }, /files\./],
    [{ ...base, files: { '../up.txt': 'x' } }, /must not contain/],
    [{ ...base, id: 'Has Spaces' }, /^id:/],
    [{ ...base, model: { kind: 'scripted', turns: [] } }, /model\.turns/],
    [{ ...base, model: { kind: 'scripted', turns: [{ content: [{ type: 'bogus' }] }] } }, /model\.turns\.0\.content\.0/],
    [{ ...base, extra: true }, /Unrecognized key/],
    [{ ...base, settings: { maxTurns: 0 } }, /settings\.maxTurns/],
  ])('rejects bad input with a path to the problem (%#)', (json, pattern) => {
    const r = parseScenario(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(pattern);
  });
});
