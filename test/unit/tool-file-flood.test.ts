/**
 * A custom tool that floods its file API — thousands of `files.write` calls it never awaits, or
 * a huge total — is stopped with an error that says why, and nothing it queued runs after its
 * call has returned (the page's sandbox would stay busy for minutes). Real just-bash sandbox, real
 * Node tool runner (a worker thread), the real file API.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import { FileState } from '../../src/harness/tools/file-state.ts';
import { customTool, FILE_API_LIMITS, parseCustomTool, projectFiles } from '../../src/harness/tools/custom/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import { shoutTool } from './custom-tools-fixture.ts';

async function setup() {
  const sandbox = await createJustBashSandbox();
  const ctx = { sandbox, cwd: WORKDIR, signal: new AbortController().signal, onOutput: () => {}, files: new FileState(), clock: new FakeClock(), ids: new SequentialIds(), agentId: 'main' };
  return { sandbox, ctx };
}

const jsTool = (source: string) => {
  // A long timeout: what stops the tool here must be the file API, not the clock.
  const r = parseCustomTool({ ...shoutTool, timeoutMs: 120_000, implementation: { kind: 'js', source } });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return customTool(r.tool, { runner: createNodeToolRunner() });
};

const count = async (sandbox: Awaited<ReturnType<typeof createJustBashSandbox>>, dir: string) => ((await sandbox.fs.stat(dir)) ? (await sandbox.fs.list(dir)).length : 0);

describe('a tool flooding its file API is bounded and stopped', () => {
  it('100,000 writes it never awaits: stopped at the call limit, with a clear error, and nothing written after', async () => {
    const { sandbox, ctx } = await setup();
    const tool = jsTool("for (let i = 0; i < 100000; i++) files.write('flood/' + i + '.txt', 'x').catch(() => {}); await new Promise(() => {});");
    const out = await tool.call({ text: 'x' }, ctx);
    expect(out).toEqual({ isError: true, content: `The tool "shout" was stopped: it made more than ${FILE_API_LIMITS.maxCalls} file calls in one run (write fewer, larger files).` });
    const written = await count(sandbox, `${WORKDIR}/flood`);
    expect(written).toBeLessThanOrEqual(FILE_API_LIMITS.maxCalls);
    // Its call has returned: nothing it queued is still on its way to the sandbox.
    await sandbox.exec('true');
    expect(await count(sandbox, `${WORKDIR}/flood`)).toBe(written);
  });

  it('a huge total (1 MB at a time, awaited): stopped at the byte limit', async () => {
    const { sandbox, ctx } = await setup();
    const tool = jsTool("const mb = 'x'.repeat(1024 * 1024); for (let i = 0; i < 64; i++) await files.write('big/' + i + '.txt', mb); return 'all written';");
    const out = await tool.call({ text: 'x' }, ctx);
    expect(out).toEqual({ isError: true, content: `The tool "shout" was stopped: it wrote more than ${FILE_API_LIMITS.maxWriteBytes} bytes in one run.` });
    expect(await count(sandbox, `${WORKDIR}/big`)).toBe(Math.floor(FILE_API_LIMITS.maxWriteBytes / (1024 * 1024)));
  });

  it('calls queued without awaiting die when the tool settles: close() drops them, later calls reject', async () => {
    const { sandbox } = await setup();
    const files = projectFiles(sandbox, WORKDIR, { tool: 'quick' });
    const calls = Array.from({ length: 100 }, (_, i) => files.write(`q/${i}.txt`, 'x').then(() => 'ok', (e: Error) => e.message));
    await files.close();
    const outcomes = await Promise.all(calls);
    // One call was already running when the tool settled; it finished. The 99 queued behind it never ran.
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(new Set(outcomes.filter((o) => o !== 'ok'))).toEqual(new Set(['files: the tool "quick" has finished; its file calls after that are dropped']));
    expect(await count(sandbox, `${WORKDIR}/q`)).toBe(1);
    await expect(files.write('late.txt', 'x')).rejects.toThrow('has finished');
    expect(await sandbox.fs.stat(`${WORKDIR}/late.txt`)).toBeNull();
  });

  it('a tool under the limits is untouched: 200 writes in a loop it awaits', async () => {
    const { sandbox, ctx } = await setup();
    const out = await jsTool("for (let i = 0; i < 200; i++) await files.write('ok/' + i + '.txt', String(i)); return 'done';").call({ text: 'x' }, ctx);
    expect(out).toEqual({ content: 'done' });
    expect(await count(sandbox, `${WORKDIR}/ok`)).toBe(200);
  });
});
