/**
 * The sandbox thread the launcher starts before it reads the runner (`src/cli/early-thread.ts`):
 * the runner's first sandbox takes that very thread (not a second one) and it works; one that died
 * first, or runs another entry, is not taken (the sandbox starts its own). Real threads on the
 * bundled worker entry. That an untaken thread does not keep the process alive is what
 * `cli-runner.test.ts`'s bad-command-line test shows: it exits 2 at once.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { runnerTakesEarlyThread, startEarlySandboxThread, takeEarlySandboxThread } from '../../src/cli/early-thread.ts';
import { createJustBashThreadSandbox } from '../../src/sandbox/justbash-worker/node-thread.ts';
import { workerBundle } from './sandbox-worker-node.ts';

afterEach(() => {
  // Nothing left in the slot for the next test.
  void takeEarlySandboxThread(workerBundle())?.worker.terminate();
});

describe('the launcher’s sandbox thread', () => {
  it('is the thread the first sandbox uses, taken once, its `online` reported once', { timeout: 30_000 }, async () => {
    const entry = workerBundle();
    const started = startEarlySandboxThread(entry, 4);
    const taken: unknown[] = [];
    let online = 0;
    const sandbox = await createJustBashThreadSandbox(entry, {}, {
      youngGenerationMb: 4,
      onOnline: () => online++,
      adopt: () => {
        const t = takeEarlySandboxThread(entry);
        taken.push(t?.worker ?? null);
        return t;
      },
    });
    try {
      expect(taken).toEqual([started]);
      expect(online).toBe(1);
      const r = await sandbox.exec('echo from the early thread');
      expect(r.stdout).toBe('from the early thread\n');
      expect(takeEarlySandboxThread(entry)).toBeNull();
    } finally {
      await sandbox.dispose();
    }
  });

  it('is not taken once it has exited: the sandbox starts a thread of its own', { timeout: 30_000 }, async () => {
    const entry = workerBundle();
    const started = startEarlySandboxThread(entry, 4);
    await started.terminate();
    let adopted: unknown = 'not asked';
    const sandbox = await createJustBashThreadSandbox(entry, {}, {
      adopt: () => {
        const t = takeEarlySandboxThread(entry);
        adopted = t;
        return t;
      },
    });
    try {
      expect(adopted).toBeNull();
      expect((await sandbox.exec('echo fresh')).stdout).toBe('fresh\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('is not taken for another entry, and is stopped', { timeout: 30_000 }, async () => {
    const started = startEarlySandboxThread(workerBundle(), 4);
    const exited = once(started, 'exit');
    expect(takeEarlySandboxThread(new URL('./elsewhere.mjs', workerBundle()))).toBeNull();
    await exited;
  });

  it('is started only for a command line whose runner takes it', () => {
    const takes = (line: string) => runnerTakesEarlyThread(line.split(' ').filter(Boolean));
    for (const line of ['fix-a-bug', '--dir ./proj -p go', '--all', '--all --quiet --live', '--all --quiet --dir ./proj', '--all --quiet --dir=./proj', '-p go --live']) expect(takes(line), line).toBe(true);
    // --help and golden take no sandbox of this kind; --all --quiet replays every lesson on sandboxes of its own.
    for (const line of ['--help', '-h', 'golden fix-a-bug', '--all --quiet', '--quiet --all']) expect(takes(line), line).toBe(false);
  });
});
