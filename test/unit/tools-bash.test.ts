import { describe, expect, it } from 'vitest';
import { toolsFixture } from './tools-fixture.ts';
import { bashTool, looksDestructive } from '../../src/harness/tools/index.ts';

describe('bash tool', () => {
  it('runs in the working directory and streams output', async () => {
    const f = await toolsFixture({ 'src/a.txt': 'hello\n' });
    const text = await f.ok('bash', { command: 'pwd && cat src/a.txt' });
    expect(text).toBe('/home/project\nhello');
    expect(f.outputs.map((c) => c.text).join('')).toContain('hello');
  });

  it('uses ctx.cwd', async () => {
    const f = await toolsFixture({ 'src/a.txt': 'x' });
    const r = await f.run('bash', { command: 'pwd && ls' }, { cwd: '/home/project/src' });
    expect(r.outcome.content).toBe('/home/project/src\na.txt');
  });

  it('says "(no output)" for a silent success', async () => {
    const f = await toolsFixture();
    expect(await f.ok('bash', { command: 'true' })).toBe('(no output)');
  });

  it('labels stderr and reports a non-zero exit code as an error', async () => {
    const f = await toolsFixture();
    const text = await f.err('bash', { command: 'echo out; echo oops >&2; exit 3' });
    expect(text).toBe('Exit code 3\nout\n[stderr]\noops');
  });

  it('explains exit 127 (command not found)', async () => {
    const f = await toolsFixture();
    const text = await f.err('bash', { command: 'definitely-not-a-command' });
    expect(text).toMatch(/^Exit code 127 \(command not found/);
  });

  it('cuts output over 30,000 characters to head + tail with a note', async () => {
    const f = await toolsFixture();
    // The same 8,000 lines a shell loop would print, from one printf (8,000 loop steps took 14 s in just-bash, 27 s under load).
    const text = await f.ok('bash', { command: "printf 'line %s\\n' $(seq 1 8000)" });
    expect(text.length).toBeLessThan(31_000);
    expect(text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(text.endsWith('line 8000')).toBe(true);
    expect(text).toMatch(/characters cut from the middle/);
  });

  it('times out with an error naming the limit', async () => {
    const f = await toolsFixture();
    // (just-bash drops the output of a command it stops, so there is none to show here.)
    const text = await f.err('bash', { command: 'echo started; sleep 30', timeout: 50 });
    expect(text).toMatch(/^Command timed out after 50 ms and was stopped\. If it needs longer, pass a larger timeout/);
    // The sandbox's own stop notice is not repeated.
    expect(text.match(/timed out/g)).toHaveLength(1);
  });

  it('stops when the run is aborted', async () => {
    const f = await toolsFixture();
    const ac = new AbortController();
    // tool.call hands the command to the sandbox before its first await, so this abort lands
    // while the command runs (through runToolCall it would land before, during validation).
    const pending = bashTool().call({ command: 'sleep 30' }, { ...f.ctx, signal: ac.signal });
    ac.abort();
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Command was aborted: the run was stopped by the user/);
  });

  it('does not start when already aborted', async () => {
    const f = await toolsFixture();
    const ac = new AbortController();
    ac.abort();
    const text = await f.err('bash', { command: 'echo hi > made.txt' }, { signal: ac.signal });
    expect(text).toMatch(/not run/);
    expect(await f.sandbox.fs.stat('/home/project/made.txt')).toBeNull();
  });

  it('rejects timeouts over the maximum and empty commands', async () => {
    const f = await toolsFixture();
    expect(await f.err('bash', { command: 'ls', timeout: 600_001 })).toMatch(/timeout: must be at most 600000/);
    expect(await f.err('bash', { command: '' })).toMatch(/command: must be at least 1 character/);
  });

  it('flags destructive commands and declares itself not read-only', () => {
    const t = bashTool();
    for (const c of ['rm -rf build', 'cd x && rm a.txt', 'git reset --hard HEAD', 'find . -name "*.o" -delete', 'git push --force origin main', 'shred secret']) {
      expect(looksDestructive(c), c).toBe(true);
      expect(t.isDestructive({ command: c })).toBe(true);
    }
    for (const c of ['ls -la', 'cat rm.txt', 'echo form', 'npm run test', 'git status', 'mkdir -p build']) {
      expect(looksDestructive(c), c).toBe(false);
    }
    expect(t.isReadOnly({ command: 'ls' })).toBe(false);
    expect(t.isConcurrencySafe({ command: 'ls' })).toBe(false);
  });
});
