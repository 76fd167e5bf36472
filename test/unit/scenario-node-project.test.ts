/**
 * The `node-project-bug` built-in: npm test fails, the agent fixes the bug, npm test passes,
 * git diff shows the change and git commit records it — all on the offline sandbox — and the
 * scenario's `settings.git` seeds the repository it starts from.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';
import { drain, ofType } from './loop-helpers.ts';

describe('node-project-bug', () => {
  it('runs npm test (fails), reads, edits, npm test (passes), git diff, git commit', async () => {
    const scenario = findBuiltinScenario('node-project-bug');
    if (!scenario) throw new Error('node-project-bug is not a built-in scenario');
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    const started = ofType(events, 'tool.started');
    expect(started.map((e) => (e.name === 'bash' ? (e.input as { command: string }).command.split(' ').slice(0, 2).join(' ') : e.name))).toEqual([
      'npm test',
      'read',
      'edit',
      'npm test',
      'git diff',
      'git commit',
    ]);
    const results = ofType(events, 'tool.result');
    expect(results[0]!.content).toMatch(/^Exit code 1\n[\s\S]*1750 !== 2300[\s\S]*# pass 3\n# fail 1\n/);
    expect(results[3]!.content).toMatch(/# pass 4\n# fail 0\n/);
    expect(results[3]!.isError).toBe(false);
    expect(results[4]!.content).toContain('-  return items.reduce((sum, item) => sum + item.priceCents, 0);\n+  return items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);');
    expect(results[5]!.content).toMatch(/^\[main [0-9a-f]{7}\] Fix totalValue: multiply unit price by quantity\n 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)$/);
    const log = await sandbox.exec('git log --oneline && git status --short');
    expect(log.stdout).toMatch(/^[0-9a-f]{7} Fix totalValue: multiply unit price by quantity\n[0-9a-f]{7} initial commit\n$/);
    const report = await sandbox.exec('npm run report');
    expect(report.stdout).toContain('3 items, stock value $23.00\nreorder stapler (0 left)\nreorder notebook (2 left)\n');
  });

  it('settings.git is optional and additive: absent means no repository', async () => {
    const parsed = parseScenario({ id: 'plain', title: 'Plain', prompt: 'hi', files: { 'a.txt': 'a' }, model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'ok' }] }] } });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.scenario.settings.git).toBeUndefined();
    const sandbox = await createJustBashSandbox();
    await prepareRun({ scenario: parsed.scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    expect(await sandbox.fs.stat('.git')).toBeNull();
    const withGit = parseScenario({ ...parsed.scenario, settings: { ...parsed.scenario.settings, git: {} } });
    expect(withGit.ok && withGit.scenario.settings.git).toEqual({ init: true, message: 'initial commit' });
  });
});
