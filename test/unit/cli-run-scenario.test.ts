/**
 * The headless runner as a script sees it: its exit code says what happened (3 for a refusal, with
 * the API's explanation on stderr), and `--permission-mode bypassPermissions` cannot beat a
 * settings file's `disableBypassPermissionsMode: "disable"`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/args.ts';
import { exitCodeFor } from '../../src/cli/exit-code.ts';
import { runCliInProcess } from '../helpers/cli.ts';

const { ok: EXIT_OK, runFailed: EXIT_FAILED, refusal: EXIT_REFUSAL } = EXIT;

const dir = mkdtempSync(join(tmpdir(), 'run-scenario-'));

function scenarioFile(name: string, body: object): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ id: name, title: name, description: 'test', prompt: 'Go.', files: {}, ...body }));
  return path;
}

// The runner's `main` in this process: the same exit codes and output, without a tsx start-up per call.
const runCli = (args: string[]) => runCliInProcess(args, { ANTHROPIC_API_KEY: '' });

describe('exitCodeFor', () => {
  it.each([
    [['completed', 'completed'], EXIT_OK],
    [['refusal'], EXIT_REFUSAL],
    [['completed', 'refusal'], EXIT_REFUSAL],
    [['refusal', 'model_error'], EXIT_FAILED],
    [['max_turns'], EXIT_FAILED],
    [['aborted'], EXIT_FAILED],
  ])('%j → %i', (reasons, code) => expect(exitCodeFor(reasons)).toBe(code));
});

describe('run-scenario', () => {
  it('exits 3 on a refusal and prints the API explanation', async () => {
    const file = scenarioFile('refuses', {
      model: {
        kind: 'scripted',
        turns: [{ content: [{ type: 'text', text: 'Sure' }], stop_reason: 'refusal', stop_details: { type: 'refusal', category: 'cyber', explanation: 'This could enable malware.' } }],
      },
      settings: { maxTurns: 5 },
    });
    const r = await runCli([file, '--quiet']);
    expect(r.code).toBe(EXIT_REFUSAL);
    expect(r.stderr).toMatch(/refuses: The model declined to continue\. The API's explanation \(category: cyber\): This could enable malware\./);
  });

  it('--permission-mode bypassPermissions is refused when settings disable it, and says so', async () => {
    const file = scenarioFile('no-bypass', {
      model: {
        kind: 'scripted',
        turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made.txt' } }] }, { content: [{ type: 'text', text: 'done' }] }],
      },
      settings: { maxTurns: 5, permissions: { disableBypassPermissionsMode: 'disable' } },
    });
    const r = await runCli([file, '--trust', '--permission-mode', 'bypassPermissions', '--output-format', 'trace']);
    expect(r.stderr).toMatch(/bypassPermissions \(asked for by the mode you chose\) is disabled by disableBypassPermissionsMode/);
    const decisions = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; decision?: string; stage?: string }).filter((e) => e.type !== 'result');
    expect(decisions.filter((e) => e.type === 'permission.decision')).toEqual([expect.objectContaining({ decision: 'deny', stage: 'prompt' })]);
    expect(decisions.find((e) => e.type === 'run.start')).toMatchObject({ type: 'run.start' });
  });

  it('judges bash on the sandbox shell’s own AST: a here-document’s $(…) meets the deny rule', async () => {
    // Our lexer skips here-document bodies and would allow this `cat`; just-bash runs the `rm`.
    const file = scenarioFile('heredoc-subst', {
      files: { 'victim.txt': 'x' },
      model: {
        kind: 'scripted',
        turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'cat <<EOF\n$(rm victim.txt)\nEOF' } }] }, { content: [{ type: 'text', text: 'done' }] }],
      },
      settings: { maxTurns: 5, permissions: { deny: ['Bash(rm *)'] } },
    });
    const r = await runCli([file, '--output-format', 'trace']);
    const events = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; decision?: string; stage?: string });
    expect(events.filter((e) => e.type === 'permission.decision')).toEqual([expect.objectContaining({ decision: 'deny', stage: 'rules' })]);
  });

  it('--permission-mode takes only a real mode', async () => {
    const r = await runCli(['x.json', '--permission-mode', 'yolo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--permission-mode takes one of default, acceptEdits, plan, dontAsk, bypassPermissions/);
  });
});
