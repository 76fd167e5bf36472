import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxFsError, WORKDIR } from '../../src/harness/ports.ts';
import { contractCases } from '../../src/sandbox/contract.ts';
import { commandCases } from '../../src/sandbox/contract/command-cases.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { ChangeCollector } from '../../src/sandbox/justbash-worker/change-collector.ts';
import { createWorkerSandbox, type WorkerLike, type WorkerSandboxOptions } from '../../src/sandbox/justbash-worker/client.ts';
import { FileMirror } from '../../src/sandbox/justbash-worker/file-mirror.ts';
import { errorFromWire, errorToWire } from '../../src/sandbox/justbash-worker/protocol.ts';
import { adaptNodeThread } from '../../src/sandbox/justbash-worker/node-thread.ts';
import { recyclingSpawner } from '../../src/sandbox/justbash-worker/spare-worker.ts';
import { spawnNodeWorker, workerBundle } from './sandbox-worker-node.ts';

// Each sandbox starts a real worker thread that loads just-bash through tsx (~0.5 s).
const SLOW = 20_000;

function workerSandbox(opts: Partial<WorkerSandboxOptions> = {}) {
  return createWorkerSandbox({ spawn: spawnNodeWorker, ...opts });
}

// Every case but the command-packaging one (`commandCases`): this suite's worker is one esbuild bundle
// with just-bash's commands inlined (`sandbox-worker-node.ts`), so it has no command chunks to load;
// the in-thread suite runs that case on just-bash's own chunks, the browser self-check on the build's.
const workerCases = contractCases.filter((c) => !commandCases.includes(c));

describe('sandbox contract: just-bash in a worker thread (shared-memory abort)', () => {
  for (const c of workerCases) {
    it(
      c.name,
      async () => {
        const sb = await workerSandbox();
        try {
          expect(sb.capabilities?.preemptiveAbort).toBe(true);
          await c.run(sb);
          // Shared memory stops loops in place: no case may have needed a restart.
          expect(sb.restarts()).toBe(0);
        } finally {
          await sb.dispose();
        }
      },
      SLOW,
    );
  }
});

describe('just-bash worker without shared memory: an abort restarts the worker from the mirror', () => {
  it(
    'stops a busy loop, keeps every file change made before it, and stays usable',
    async () => {
      const sb = await workerSandbox({ sharedAbort: false, files: { 'seed.txt': 'seed', 'old/x.txt': 'x\n' } });
      try {
        await sb.fs.writeFile('by-fs.txt', 'fs\n');
        await sb.exec('mkdir -p empty/inner src && echo exec > src/by-exec.txt && mv old moved && rm seed.txt');
        const events: string[][] = [];
        sb.fs.watch((e) => events.push(e.paths));

        const controller = new AbortController();
        const running = sb.exec('while true; do :; done', { signal: controller.signal, timeoutMs: 15_000 });
        // A file call queued behind the loop is answered by the replacement worker.
        const queued = sb.fs.readFile('by-fs.txt');
        controller.abort();
        const r = await running;
        expect([r.exitCode, r.aborted, r.timedOut]).toEqual([130, true, false]);
        expect(r.stderr).toMatch(/aborted by the user/);
        expect(r.stderr).toMatch(/sandbox worker was restarted with the files as they were after the last finished command/);
        expect(sb.restarts()).toBe(1);
        expect(await queued).toBe('fs\n');

        const after = await sb.exec('cat src/by-exec.txt moved/x.txt by-fs.txt; ls -d empty/inner; ls seed.txt old 2>&1 | wc -l');
        expect(after.stdout).toBe('exec\nx\nfs\nempty/inner\n2\n');
        await expect(sb.fs.readFile('seed.txt')).rejects.toMatchObject({ name: 'SandboxFsError', code: 'ENOENT' });
        // Watchers subscribed before the restart still hear about changes in the new worker.
        await sb.exec('echo new > after.txt');
        expect(events.flat()).toContain(`${WORKDIR}/after.txt`);
      } finally {
        await sb.dispose();
      }
    },
    SLOW,
  );

  it(
    'a command that waits (sleep) sees the abort message and stops without a restart',
    async () => {
      // A long grace: the abort must be seen through the message, not by terminating the worker.
      const sb = await workerSandbox({ sharedAbort: false, abortGraceMs: 10_000 });
      try {
        const controller = new AbortController();
        const running = sb.exec('sleep 20; echo woke', { signal: controller.signal });
        setTimeout(() => controller.abort(), 50);
        const r = await running;
        expect([r.exitCode, r.aborted, r.stdout]).toEqual([130, true, '']);
        expect(sb.restarts()).toBe(0);
      } finally {
        await sb.dispose();
      }
    },
    SLOW,
  );
});

describe('just-bash worker lifecycle', () => {
  it(
    'a crash fails the command in flight with 126, restarts from the mirror, and the sandbox goes on',
    async () => {
      let crash: ((why: string) => void) | undefined;
      const spawn = (): WorkerLike => {
        const w = spawnNodeWorker();
        return {
          ...w,
          onError: (handler) => {
            crash = handler;
            w.onError(handler);
          },
        };
      };
      const sb = await createWorkerSandbox({ spawn, files: { 'a.txt': 'A' } });
      try {
        await sb.exec('echo B > b.txt');
        const running = sb.exec('sleep 20');
        crash?.('out of memory');
        const r = await running;
        expect(r.exitCode).toBe(126);
        expect(r.stderr).toMatch(/sandbox worker crashed \(out of memory\) and was restarted/);
        expect((await sb.exec('cat a.txt b.txt')).stdout).toBe('AB\n');
      } finally {
        await sb.dispose();
      }
    },
    SLOW,
  );

  it('rejects with a reason when the worker cannot load', async () => {
    const spawn = (): WorkerLike => {
      const w = new Worker('throw new Error("no such module")', { eval: true });
      return {
        post: (m) => w.postMessage(m),
        onMessage: (h) => w.on('message', h),
        onError: (h) => w.on('error', (e) => h(e.message)),
        terminate: () => void w.terminate(),
      };
    };
    await expect(createWorkerSandbox({ spawn })).rejects.toThrow(/just-bash's worker did not start: it failed to load: no such module/);
  });

  it('rejects when the worker never answers', async () => {
    const silent: WorkerLike = { post: () => {}, onMessage: () => {}, onError: () => {}, terminate: () => {} };
    await expect(createWorkerSandbox({ spawn: () => silent, startTimeoutMs: 50 })).rejects.toThrow(/did not start within 50 ms/);
  });

  it(
    'after dispose, exec is 126 and file calls reject',
    async () => {
      const sb = await workerSandbox();
      const pending = sb.exec('sleep 20');
      await sb.dispose();
      expect((await pending).exitCode).toBe(126);
      expect((await sb.exec('echo hi')).stderr).toMatch(/disposed/);
      await expect(sb.fs.readFile('x')).rejects.toBeInstanceOf(SandboxFsError);
    },
    SLOW,
  );
});

describe('a worker handed back by a sandbox that never ran a command', () => {
  const threads: Worker[] = [];
  // A spare left idle at the end of a test is a live thread: none outlives its test.
  afterEach(async () => {
    await Promise.all(threads.splice(0).map((w) => w.terminate()));
  });

  /** The real spawner over real threads, counting the threads it started and killed. */
  function countingSpawner() {
    const started: Worker[] = [];
    const killed: Worker[] = [];
    const spawn = recyclingSpawner(
      () => {
        const w = new Worker(workerBundle());
        started.push(w);
        threads.push(w);
        return w;
      },
      adaptNodeThread,
      (w) => {
        killed.push(w);
        void w.terminate();
      },
    );
    return { spawn, started, killed };
  }

  it(
    'serves the next sandbox: same thread, none of the old files, and it works',
    async () => {
      const { spawn, started } = countingSpawner();
      const a = await createWorkerSandbox({ spawn, files: { 'a.txt': 'A' } });
      await a.fs.writeFile(`${WORKDIR}/seeded.txt`, 'written after start');
      expect(await a.fs.readFile(`${WORKDIR}/a.txt`)).toBe('A');
      await a.dispose();

      const b = await createWorkerSandbox({ spawn, files: { 'b.txt': 'B' } });
      try {
        expect(started).toHaveLength(1);
        expect(await b.fs.stat(`${WORKDIR}/a.txt`)).toBeNull();
        expect(await b.fs.stat(`${WORKDIR}/seeded.txt`)).toBeNull();
        const r = await b.exec('ls; cat b.txt; echo new > c.txt');
        expect(r.stdout).toBe('b.txt\nB');
        expect(await b.fs.readFile(`${WORKDIR}/c.txt`)).toBe('new\n');
        // The old sandbox stays disposed: nothing of it reaches the worker now serving `b`.
        expect((await a.exec('echo hi')).stderr).toMatch(/disposed/);
        await expect(a.fs.readFile(`${WORKDIR}/b.txt`)).rejects.toBeInstanceOf(SandboxFsError);
      } finally {
        await b.dispose();
      }
    },
    SLOW,
  );

  it(
    'is never kept once it ran a command (guest code may have run in its realm): the next sandbox gets a new thread',
    async () => {
      const { spawn, started, killed } = countingSpawner();
      const a = await createWorkerSandbox({ spawn });
      await a.exec('true');
      await a.dispose();
      const b = await createWorkerSandbox({ spawn });
      try {
        expect(started).toHaveLength(2);
        expect((await b.exec('echo ok')).stdout).toBe('ok\n');
      } finally {
        await b.dispose();
      }
      expect(killed).toHaveLength(0);
      // `b` ran a command too: terminated, not kept, so a third spawn starts a third thread.
      const c = await createWorkerSandbox({ spawn });
      await c.dispose();
      expect(started).toHaveLength(3);
    },
    SLOW,
  );

  it(
    'one spare at most: a second handed-back worker replaces the first, which is terminated',
    async () => {
      const { spawn, started, killed } = countingSpawner();
      const a = await createWorkerSandbox({ spawn });
      const b = await createWorkerSandbox({ spawn });
      await a.dispose();
      await b.dispose();
      expect(killed).toEqual([started[0]]);
      const c = await createWorkerSandbox({ spawn });
      try {
        expect(started).toHaveLength(2);
        expect((await c.exec('pwd')).stdout).toBe(`${WORKDIR}\n`);
      } finally {
        await c.dispose();
      }
    },
    SLOW,
  );
});

describe('worker protocol pieces', () => {
  it('re-creates SandboxFsError with its code, path and message; other errors keep name and message', () => {
    const back = errorFromWire(structuredClone(errorToWire(new SandboxFsError('ENOTDIR', '/p/f', 'ENOTDIR: /p/f is not a directory'))));
    expect(back).toBeInstanceOf(SandboxFsError);
    expect(back).toMatchObject({ code: 'ENOTDIR', path: '/p/f', message: 'ENOTDIR: /p/f is not a directory' });
    const plain = errorFromWire(structuredClone(errorToWire(new TypeError('bad'))));
    expect(plain).not.toBeInstanceOf(SandboxFsError);
    expect([plain.name, plain.message]).toEqual(['TypeError', 'bad']);
    expect(errorFromWire(errorToWire('text'))).toMatchObject({ name: 'Error', message: 'text' });
  });

  it('FileMirror applies files, dirs and removals (whole subtrees) and lists parents first', () => {
    const m = new FileMirror({ 'a.txt': 'A', '/etc/conf': 'c' });
    m.apply([
      { path: `${WORKDIR}/d`, kind: 'dir' },
      { path: `${WORKDIR}/d/e/f.txt`, kind: 'file', content: 'F' },
      { path: `${WORKDIR}/d2`, kind: 'dir' },
      { path: `${WORKDIR}/a.txt`, kind: 'file', content: 'A2' },
    ]);
    m.apply([{ path: `${WORKDIR}/d`, kind: 'gone' }]);
    expect(m.toInit()).toEqual({ files: { '/etc/conf': 'c', [`${WORKDIR}/a.txt`]: 'A2' }, dirs: [WORKDIR, `${WORKDIR}/d2`] });
  });

  it('ChangeCollector walks a moved directory, reports removals, and does not resend unchanged files', async () => {
    const sb = await createJustBashSandbox({ files: { 'src/a.ts': 'a', 'src/lib/b.ts': 'b', 'keep.txt': 'k\n' } });
    const collector = new ChangeCollector(sb.fs);
    await collector.baseline('/');
    const changed: string[] = [];
    sb.fs.watch((e) => changed.push(...e.paths));

    await sb.exec('mv src app && echo more >> keep.txt');
    const entries = await collector.collect(changed.splice(0));
    const byPath = Object.fromEntries(entries.map((e) => [e.path, e.kind === 'file' ? e.content : e.kind]));
    expect(byPath).toMatchObject({
      [`${WORKDIR}/src`]: 'gone',
      [`${WORKDIR}/app`]: 'dir',
      [`${WORKDIR}/app/a.ts`]: 'a',
      [`${WORKDIR}/app/lib`]: 'dir',
      [`${WORKDIR}/app/lib/b.ts`]: 'b',
      [`${WORKDIR}/keep.txt`]: 'k\nmore\n',
    });

    // A write into the workspace root records the root; only the new file is sent.
    await sb.fs.writeFile('new.txt', 'n');
    const next = await collector.collect(changed.splice(0));
    expect(next.filter((e) => e.kind === 'file').map((e) => e.path)).toEqual([`${WORKDIR}/new.txt`]);
  });
});
