/**
 * `--dir` keeps the folder's git history (issue 23 §3): its `.git` is carried into the sandbox byte
 * for byte (loose objects and packs), so `git log` / `git status` / `git diff` work there; a `.git`
 * too large to carry, or a `.git` file, gives a fresh repository from the files instead, said on
 * stderr; nothing under `.git` is ever written back.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyGitIntoSandbox, readDirGit } from '../../src/cli/dir-git.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { runCliInProcess } from '../helpers/cli.ts';

const KEY = 'sk-ant-test-dir-git-0123456789';
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });

/** A folder with two commits and an uncommitted edit; `pack` puts the objects into a pack file. */
function repo(pack = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-dir-git-'));
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'app.js'), 'console.log(1);\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first: the app');
  writeFileSync(join(dir, 'README.md'), '# app\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'second: a readme');
  if (pack) git(dir, 'gc', '-q');
  writeFileSync(join(dir, 'app.js'), 'console.log(2);\n');
  return dir;
}

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ turns: [], requireApiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

const bash = (command: string): ScriptedTurn => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });
const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
const runDir = (dir: string, extra: string[] = []) => runCliInProcess(['--dir', dir, '-p', 'look at the history', '--trust', '--permission-mode', 'bypassPermissions', '--output-format', 'trace', '--no-session-persistence', ...extra], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
const results = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; content?: string; isError?: boolean })
    .filter((e) => e.type === 'tool.result');

describe('--dir and git', { timeout: 90_000 }, () => {
  it.each([false, true])('the history is in the sandbox byte for byte (packed: %s): log, status and diff work', async (pack) => {
    const dir = repo(pack);
    const found = await readDirGit(dir);
    expect(found.kind).toBe('copy');
    if (found.kind !== 'copy') return;
    const sandbox = await createJustBashSandbox();
    try {
      for (const [p, c] of Object.entries({ 'app.js': 'console.log(2);\n', 'README.md': '# app\n' })) await sandbox.fs.writeFile(`${sandbox.workdir}/${p}`, c);
      await copyGitIntoSandbox(sandbox, found.files);
      const log = await sandbox.exec('git log --oneline');
      expect(log.exitCode).toBe(0);
      expect(log.stdout).toMatch(/second: a readme\n.*first: the app/);
      const status = await sandbox.exec('git status --short');
      expect(status.stdout.trim()).toBe('M app.js');
      const diff = await sandbox.exec('git diff');
      expect(diff.stdout).toContain('+console.log(2);');
    } finally {
      await sandbox.dispose();
    }
  });

  it('a pack file larger than one sandbox command (several MB) goes in as several appends, byte for byte', async () => {
    const dir = repo();
    // Random bytes do not compress: the pack holds ~2.5 MB, ~3.4 MB of base64, past the shell's 1 MB input.
    writeFileSync(join(dir, 'blob.bin'), randomBytes(2_500_000));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'third: a blob');
    git(dir, 'gc', '-q');
    const found = await readDirGit(dir);
    if (found.kind !== 'copy') throw new Error(`expected a copy, got ${found.kind}`);
    const pack = found.files.find((f) => f.path.endsWith('.pack'))!;
    expect(pack.bytes.length).toBeGreaterThan(2_000_000);
    const sandbox = await createJustBashSandbox();
    try {
      await copyGitIntoSandbox(sandbox, found.files);
      const size = await sandbox.exec(`wc -c < '${pack.path}'`);
      expect(Number(size.stdout.trim())).toBe(pack.bytes.length);
      const log = await sandbox.exec('git log --oneline');
      expect(log.exitCode).toBe(0);
      expect(log.stdout).toMatch(/third: a blob/);
      // A pack ends with its SHA-1 trailer: the last appended piece landed in place.
      const tail = await sandbox.exec(`tail -c 20 '${pack.path}' | base64`);
      expect(tail.stdout.replace(/\s/g, '')).toBe(pack.bytes.subarray(-20).toString('base64'));
    } finally {
      await sandbox.dispose();
    }
  });

  it('too large or a .git file: a fresh repository, and why; no .git: none', async () => {
    const dir = repo();
    expect(await readDirGit(dir, { maxBytes: 100 })).toMatchObject({ kind: 'seed', why: expect.stringMatching(/\.git is too large to carry into the sandbox \(over 1 KB\)/) });
    expect(await readDirGit(dir, { maxFiles: 3 })).toMatchObject({ kind: 'seed', why: expect.stringMatching(/over 3 files/) });
    const linked = mkdtempSync(join(tmpdir(), 'hp-dir-gitfile-'));
    writeFileSync(join(linked, '.git'), 'gitdir: /somewhere/else\n');
    expect(await readDirGit(linked)).toMatchObject({ kind: 'seed', why: expect.stringMatching(/\.git is a file/) });
    expect(await readDirGit(mkdtempSync(join(tmpdir(), 'hp-dir-nogit-')))).toEqual({ kind: 'none' });
  });

  it('a --dir run: the agent’s git log and git status see the folder’s history; stderr says it was kept; .git is not written back', async () => {
    const dir = repo(true);
    const headBefore = readFileSync(join(dir, '.git', 'HEAD'), 'utf8');
    const indexBefore = statSync(join(dir, '.git', 'index')).mtimeMs;
    server.setTurns([bash('git log --oneline && git status --short'), bash('echo more >> README.md && git add -A && git commit -q -m "third: from the sandbox" && git log --oneline -n 1'), say('Done.')]);
    const r = await runDir(dir, ['--write-back']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/kept the folder's git history: \.git \([\d,]+ files?, [\d,]+ KB\) is in the sandbox; commits made there are not written back/);
    const [log, commit] = results(r.stdout);
    expect(log).toMatchObject({ isError: false, content: expect.stringMatching(/second: a readme[\s\S]*first: the app[\s\S]*M app\.js/) });
    expect(commit).toMatchObject({ isError: false, content: expect.stringContaining('third: from the sandbox') });
    // The file the agent changed is written back; the folder's repository is as it was.
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# app\nmore\n');
    expect(readFileSync(join(dir, '.git', 'HEAD'), 'utf8')).toBe(headBefore);
    expect(statSync(join(dir, '.git', 'index')).mtimeMs).toBe(indexBefore);
    expect(git(dir, 'log', '--oneline')).not.toContain('third');
  });

  it('a .git the sandbox cannot carry: a fresh repository from the files, said on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-dir-gitfile-'));
    writeFileSync(join(dir, '.git'), 'gitdir: /somewhere/else\n');
    writeFileSync(join(dir, 'app.js'), 'console.log(1);\n');
    server.setTurns([bash('git log --oneline && git status --short && echo clean'), say('Done.')]);
    const r = await runDir(dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\.git is a file .*the sandbox starts a fresh repository from the files \(one commit\) instead/);
    expect(results(r.stdout)[0]).toMatchObject({ isError: false, content: expect.stringMatching(/Snapshot of hp-dir-gitfile-\w+ \(harness-playground --dir\)[\s\S]*clean/) });
  });
});
