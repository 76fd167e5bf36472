import { describe, expect, it } from 'vitest';
import { contractCases, runSandboxContract } from '../../src/sandbox/contract.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';

describe('sandbox contract: just-bash (Node)', () => {
  for (const c of contractCases) {
    it(c.name, async () => {
      const sb = await createJustBashSandbox();
      try {
        await c.run(sb);
      } finally {
        await sb.dispose();
      }
    });
  }
});

const canBootWebContainer =
  (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && typeof window !== 'undefined';

describe.skipIf(!canBootWebContainer)(
  'sandbox contract: webcontainer (skipped: cannot boot outside a cross-origin-isolated browser with StackBlitz reachable)',
  () => {
    it('passes every contract case', async () => {
      const { createWebContainerSandbox } = await import('../../src/sandbox/webcontainer/index.ts');
      const outcomes = await runSandboxContract(() => createWebContainerSandbox());
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    });
  },
);

describe('just-bash specifics', () => {
  it('seeds initial files relative to the workdir or absolute', async () => {
    const sb = await createJustBashSandbox({ files: { 'src/a.ts': 'export {}', '/etc/conf': 'x=1' } });
    expect(await sb.fs.readFile(`${WORKDIR}/src/a.ts`)).toBe('export {}');
    expect((await sb.exec('cat /etc/conf')).stdout).toBe('x=1');
  });

  it('reports exactly the paths a command changed', async () => {
    const sb = await createJustBashSandbox({ files: { 'old.txt': 'o' } });
    const events: string[][] = [];
    sb.fs.watch((e) => events.push(e.paths));
    await sb.exec('echo n > new.txt; mv old.txt moved.txt; cat new.txt');
    expect(events).toEqual([[`${WORKDIR}/moved.txt`, `${WORKDIR}/new.txt`, `${WORKDIR}/old.txt`]]);
    await sb.exec('cat new.txt');
    expect(events).toHaveLength(1);
  });

  it('delivers onOutput as one chunk per stream at the end, already truncated', async () => {
    const sb = await createJustBashSandbox();
    const chunks: { stream: string; text: string }[] = [];
    const r = await sb.exec('seq 1 5000; echo bad >&2', { maxOutputChars: 100, onOutput: (c) => chunks.push(c) });
    expect(chunks.map((c) => c.stream)).toEqual(['stdout', 'stderr']);
    expect(chunks[0]?.text).toBe(r.stdout);
    expect(chunks[1]?.text).toBe('bad\n');
  });

  it('stops a `:` busy loop by the deadline, long before the command-count limit', async () => {
    const sb = await createJustBashSandbox();
    const r = await sb.exec('while true; do :; done', { timeoutMs: 100 });
    expect([r.exitCode, r.timedOut, r.aborted]).toEqual([124, true, false]);
    expect(r.stderr).toBe('Command timed out after 100 ms and was stopped (exit 124). Run a shorter step or raise the timeout.\n');
  });

  it('reports the command-count limit as 126 when there is no timeout to stop a loop', async () => {
    const sb = await createJustBashSandbox();
    const r = await sb.exec('while true; do :; done');
    expect([r.exitCode, r.timedOut, r.aborted]).toEqual([126, false, false]);
    expect(r.stderr).toMatch(/too many commands/);
  });

  it('keeps heredocs and indentation as written', async () => {
    const sb = await createJustBashSandbox();
    const r = await sb.exec('cat <<EOF\n  indented\nEOF');
    expect(r.stdout).toBe('  indented\n');
  });

  it('refuses to run after dispose', async () => {
    const sb = await createJustBashSandbox();
    await sb.dispose();
    const r = await sb.exec('echo hi');
    expect(r.exitCode).toBe(126);
    expect(r.stderr).toMatch(/disposed/);
  });
});

describe('runSandboxContract', () => {
  it('reports each case with ok/error and never throws', async () => {
    const outcomes = await runSandboxContract(() => createJustBashSandbox(), [
      { name: 'passes', run: async (sb) => void (await sb.exec('true')) },
      {
        name: 'fails',
        run: () => Promise.reject(new Error('expected 1, got 2')),
      },
    ]);
    expect(outcomes.map((o) => [o.name, o.ok, o.error])).toEqual([
      ['passes', true, undefined],
      ['fails', false, 'expected 1, got 2'],
    ]);
  });
});
