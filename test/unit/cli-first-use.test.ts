/**
 * First use of the runner (issue 24 §3): `--help` puts every output format under
 * `--output-format` and refusal under exit 3 only; on a fresh clone the bin says on stderr that
 * it is building instead of sitting silent.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT, helpText } from '../../src/cli/args.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The lines of one option in the help: its first line and the indented lines under it. */
function optionBlock(help: string, flag: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(flag));
  const end = lines.findIndex((l, i) => i > start && /^ {2}-/.test(l));
  return lines.slice(start, end).join('\n');
}

describe('the help text', () => {
  const help = helpText(['fix-a-bug']);
  it('lists every output format under --output-format', () => {
    const block = optionBlock(help, '--output-format');
    for (const f of ['text', 'json:', 'stream-json:']) expect(block).toContain(f);
    expect(optionBlock(help, '-v, --verbose')).not.toMatch(/json/);
  });
  it('names refusal under exit 3 only', () => {
    const exits = help.slice(help.indexOf('Exit codes'));
    const line = (code: number) => exits.split('\n').find((l) => l.trimStart().startsWith(`${code} `)) ?? '';
    expect(line(EXIT.refusal)).toMatch(/refusal/);
    expect(line(EXIT.runFailed)).not.toMatch(/refusal/);
  });
});

describe('the bin on a fresh clone', () => {
  it('says on stderr that it builds the runner, then prints the help', async () => {
    // A clone without dist-cli/: the bin and the build script copied, the sources and packages linked.
    const root = mkdtempSync(join(tmpdir(), 'hp-clone-'));
    try {
      for (const d of ['bin', 'scripts']) mkdirSync(join(root, d));
      cpSync(join(repo, 'bin', 'harness-playground.mjs'), join(root, 'bin', 'harness-playground.mjs'));
      for (const f of ['build-cli.mjs', 'cli-bundle-state.mjs']) cpSync(join(repo, 'scripts', f), join(root, 'scripts', f));
      cpSync(join(repo, 'package.json'), join(root, 'package.json'));
      for (const d of ['src', 'node_modules', 'skills']) symlinkSync(join(repo, d), join(root, d));
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(root, 'bin', 'harness-playground.mjs'), '--help'], { cwd: root });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^harness-playground: building the runner/m);
      expect(r.stderr).toMatch(/^harness-playground: built in [\d.]+ s\.$/m);
      expect(r.stdout).toContain('--output-format');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 180_000);
});
