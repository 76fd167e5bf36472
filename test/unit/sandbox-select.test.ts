import { afterEach, describe, expect, it } from 'vitest';
import { chooseSandbox } from '../../src/sandbox/select.ts';
import { bootWebContainer, WebContainerUnavailableError } from '../../src/sandbox/webcontainer/index.ts';

const g = globalThis as { crossOriginIsolated?: boolean };

describe('chooseSandbox', () => {
  afterEach(() => {
    delete g.crossOriginIsolated;
  });

  it('uses just-bash when the scenario asks for it', async () => {
    const chosen = await chooseSandbox('just-bash', { files: { 'a.txt': 'A' } });
    expect(chosen.live).toBe('just-bash');
    expect(chosen.reason).toBe('just-bash chosen by the scenario for exact replays');
    expect(await chosen.sandbox.fs.readFile('a.txt')).toBe('A');
  });

  it('outside a browser (no Worker) runs just-bash in this thread, which does not promise a preemptive abort', async () => {
    const chosen = await chooseSandbox('just-bash');
    expect(chosen.sandbox.capabilities?.preemptiveAbort).toBe(false);
    expect(chosen.reason).not.toMatch(/Worker/);
  });

  it('falls back to just-bash with a reason when the page is not cross-origin isolated', async () => {
    const chosen = await chooseSandbox('auto', { files: { 'b.txt': 'B' } });
    expect(chosen.live).toBe('just-bash');
    expect(chosen.sandbox.kind).toBe('just-bash');
    expect(chosen.reason).toBe('WebContainer needs cross-origin isolation, which this page does not have — using just-bash');
    expect((await chosen.sandbox.exec('cat b.txt')).stdout).toBe('B');
  });

  it('says the scenario asked for WebContainer when it cannot have it', async () => {
    const chosen = await chooseSandbox('webcontainer');
    expect(chosen.live).toBe('just-bash');
    expect(chosen.reason).toBe(
      'The scenario asked for WebContainer: WebContainer needs cross-origin isolation, which this page does not have — using just-bash',
    );
  });

  it('treats a failed or timed-out boot as final for the page load', async () => {
    // Isolated but outside a browser: the real @webcontainer/api cannot boot here, by error or by hanging.
    g.crossOriginIsolated = true;
    const first = await chooseSandbox('auto', { bootTimeoutMs: 300 });
    expect(first.live).toBe('just-bash');
    expect(first.reason).toMatch(/^WebContainer (did not boot within 300 ms \(its servers are unreachable\)|failed to boot \(.+\)) — using just-bash$/);
    const err = await bootWebContainer(60_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebContainerUnavailableError);
    expect(`${(err as Error).message} — using just-bash`).toBe(first.reason);
  });
});
