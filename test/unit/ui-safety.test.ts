/**
 * The UI's safety views over the trace (stage strip data, hooks timeline, audit records) and the
 * what-if rule editor, checked against real runs of the built-in safety scenarios: scripted
 * model, just-bash sandbox, FakeClock, real permission pipeline and hooks.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { whatIf } from '../../src/harness/permissions/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { auditJsonLines, auditRecords, deriveHookRows, derivePermissions, inputSummary } from '../../src/ui/state/safety.ts';
import { parseRulesText, rulesToText } from '../../src/ui/state/what-if-rules.ts';
import { explainStage } from '../../src/ui/explain/explain.ts';
import { modeSourceText } from '../../src/ui/explain/mode-source.ts';

async function trace(id: string, trusted = true): Promise<TraceEvent[]> {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, trusted, clock: new FakeClock(), ids: new SequentialIds() });
  const events: TraceEvent[] = [];
  const gen = agentLoop(input, deps);
  for (let r = await gen.next(); !r.done; r = await gen.next()) events.push(r.value);
  await sandbox.dispose();
  return events;
}

const proposedIds = (events: TraceEvent[]) => events.flatMap((e) => (e.type === 'tool.proposed' ? [e.toolUseId] : []));

describe('derivePermissions', () => {
  it('deny-beats-allow: each call has its stages in order, and exactly one decider — rules', async () => {
    const events = await trace('deny-beats-allow');
    const perms = derivePermissions(events);
    const [first, second] = proposedIds(events).map((id) => perms.get(id)!);
    for (const p of [first!, second!]) {
      expect(p.stages.map((s) => s.stage).slice(0, 4)).toEqual(['validate', 'tool_check', 'hooks', 'rules']);
      expect(p.stages.filter((s) => s.deciding)).toHaveLength(1);
    }
    expect(first!.final).toMatchObject({ decision: 'allow', stage: 'rules' });
    const decider = second!.stages.find((s) => s.deciding)!;
    expect(decider).toMatchObject({ stage: 'rules', decision: 'deny' });
    expect(decider.decidedBy?.text).toContain('Bash(rm -rf *)');
    // Nothing after the decider ran.
    expect(second!.stages.at(-1)).toBe(decider);
  });

  it('a prefix of the trace shows the stages so far and no decider yet', async () => {
    const events = await trace('deny-beats-allow');
    const firstRules = events.findIndex((e) => e.type === 'permission.stage' && e.stage === 'hooks');
    const perms = derivePermissions(events.slice(0, firstRules + 1));
    const [p] = [...perms.values()];
    expect(p!.final).toBeUndefined();
    expect(p!.stages.some((s) => s.deciding)).toBe(false);
  });
});

describe('the mode stage names where its mode came from', () => {
  it('layered-claude-settings: the write is allowed by acceptEdits — from local settings (project asked for plan)', async () => {
    const events = await trace('layered-claude-settings');
    const perms = derivePermissions(events);
    const [write] = proposedIds(events).map((id) => perms.get(id)!);
    const mode = write!.stages.find((s) => s.stage === 'mode')!;
    expect(mode).toMatchObject({ decision: 'allow', deciding: true, mode: { name: 'acceptEdits', from: 'local settings' } });
    expect(explainStage('mode', mode.mode).means).toContain('Here the mode is acceptEdits — from local settings.');
    // Only the mode stage carries it; the plain explanation is unchanged without a source.
    expect(write!.stages.filter((s) => s.mode)).toHaveLength(1);
    expect(explainStage('mode').means).not.toContain('Here the mode');
  });

  it('a run that read no settings says nothing of a source', async () => {
    const events = await trace('ask-permission');
    expect(events.some((e) => e.type === 'settings.read')).toBe(false);
    const stages = [...derivePermissions(events).values()].flatMap((p) => p.stages);
    expect(stages.some((s) => s.stage === 'mode')).toBe(true);
    expect(stages.some((s) => s.mode)).toBe(false);
  });

  it('words each source as the settings.read explanation does', () => {
    expect(modeSourceText('project')).toBe('project settings');
    expect(modeSourceText('you')).toBe('your choice for this run');
    expect(modeSourceText('default')).toBe('no scope (the default)');
  });
});

describe('deriveHookRows', () => {
  it('pretooluse-hook-blocks: the blocking PreToolUse hook (exit 2, stderr) then a passing one', async () => {
    const events = await trace('pretooluse-hook-blocks');
    const rows = deriveHookRows(events).filter((r) => r.kind === 'run');
    const pre = rows.filter((r) => r.event === 'PreToolUse');
    expect(pre.length).toBeGreaterThanOrEqual(2);
    const [blocking, passing] = pre;
    if (blocking?.kind !== 'run' || passing?.kind !== 'run') throw new Error('expected run rows');
    expect(blocking.exitCode).toBe(2);
    expect(['deny', 'block']).toContain(blocking.decision);
    expect(blocking.stderr).toContain('rm is blocked by policy');
    expect(blocking.input).toMatchObject({ tool_input: { command: 'rm notes.txt' } });
    expect(passing.exitCode).toBe(0);
  });

  it('an untrusted run of the same scenario has no hook rows at all', async () => {
    const events = await trace('pretooluse-hook-blocks', false);
    expect(deriveHookRows(events)).toEqual([]);
    expect(events.some((e) => e.type.startsWith('hook.'))).toBe(false);
  });
});

describe('audit records', () => {
  it('one record per permission.decision, with the input summarised and the decider named', async () => {
    const events = await trace('deny-beats-allow');
    const records = auditRecords(events);
    expect(records.map((r) => [r.tool, r.input, r.decision, r.stage])).toEqual([
      ['bash', 'rm old.log', 'allow', 'rules'],
      ['bash', 'rm -rf build', 'deny', 'rules'],
    ]);
    expect(records[1]!.decidedBy).toMatch(/^rule: Bash\(rm -rf \*\)/);
    const lines = auditJsonLines(events).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(records);
    expect(auditJsonLines([])).toBe('');
  });

  it('summaries are one line and bounded', () => {
    expect(inputSummary('bash', { command: 'a\n  b' })).toBe('a b');
    expect(inputSummary('read', { file_path: '/x' })).toBe('/x');
    expect(inputSummary('grep', { pattern: 'TODO', path: 'src' })).toBe('TODO in src');
    expect(inputSummary('other', { long: 'x'.repeat(1000) }).length).toBeLessThanOrEqual(300);
  });
});

describe('what-if rules text', () => {
  it('round-trips tool and regex rules, and reports bad lines by number', () => {
    const text = 'deny: Bash(rm -rf *)\n# a comment\n\nallow: Bash(rm *)\nask: /curl/ tools /bash/';
    const parsed = parseRulesText(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rules.map((r) => r.behavior)).toEqual(['deny', 'allow', 'ask']);
    expect(parseRulesText(rulesToText(parsed.rules)).rules).toEqual(parsed.rules);
    const bad = parseRulesText('allow: Bash(ls *)\nmaybe: Bash\nallow: Bash(\ndeny: /(/');
    expect(bad.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(bad.rules).toHaveLength(1);
  });

  it('feeds whatIf: removing the deny rule lets the allow rule decide', async () => {
    const call = { name: 'bash', input: { command: 'rm -rf build' } };
    const base = { mode: 'default' as const, workdir: '/home/project' };
    const withDeny = await whatIf(call, { ...base, rules: parseRulesText('deny: Bash(rm -rf *)\nallow: Bash(rm *)').rules });
    expect([withDeny.decidingStage, withDeny.outcome]).toEqual(['rules', 'deny']);
    const allowOnly = await whatIf(call, { ...base, rules: parseRulesText('allow: Bash(rm *)').rules });
    expect([allowOnly.decidingStage, allowOnly.outcome]).toEqual(['rules', 'allow']);
  });
});
