/**
 * The sandbox the page hands out while just-bash starts (`src/sandbox/booting-sandbox.ts`): it
 * keeps the sandbox contract, answers the start files' reads before the sandbox is up, and sends
 * everything else (and every read after a write or command) to the sandbox in order once it is.
 */
import { describe, expect, it } from 'vitest';
import { HOME_DIR, SandboxFsError, WORKDIR } from '../../src/harness/ports.ts';
import type { Sandbox } from '../../src/harness/ports.ts';
import { BootView } from '../../src/sandbox/boot-view.ts';
import { bootingSandbox } from '../../src/sandbox/booting-sandbox.ts';
import { contractCases } from '../../src/sandbox/contract.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { createWorkerSandbox } from '../../src/sandbox/justbash-worker/client.ts';
import { bootJustBash } from '../../src/sandbox/select.ts';
import { spawnNodeWorker } from './sandbox-worker-node.ts';

const MTIME = 1_700_000_000_456;
const FILES = { [`${WORKDIR}/CLAUDE.md`]: 'Project notes.\n', [`${WORKDIR}/.claude/settings.json`]: '{}\n' };

/** A sandbox start the test releases: `release()` starts the real just-bash, `fail()` makes it fail. */
function heldStart(files: Record<string, string> = FILES) {
  let release!: () => void;
  let fail!: (why: string) => void;
  const start = new Promise<Sandbox>((resolve, reject) => {
    release = () => void createJustBashSandbox({ files, mtimeMs: MTIME }).then(resolve);
    fail = (why) => reject(new Error(why));
  });
  return { start, release, fail };
}

const settled = <T>(p: Promise<T>) => Promise.race([p.then(() => 'settled' as const, () => 'settled' as const), new Promise<'pending'>((r) => setTimeout(() => r('pending'), 20))]);

describe('booting sandbox: the contract', () => {
  for (const c of contractCases) {
    it(c.name, async () => {
      const sb = bootingSandbox({ start: createJustBashSandbox({ mtimeMs: MTIME }), view: new BootView({}, [], MTIME) });
      try {
        await c.run(sb);
      } finally {
        await sb.dispose();
      }
    });
  }
});

describe('booting sandbox: while it starts', () => {
  it('answers reads of its start files before the sandbox is up, as the sandbox will', async () => {
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start, view: new BootView(FILES, [], MTIME) });
    expect(await sb.fs.readFile('CLAUDE.md')).toBe('Project notes.\n');
    expect(await sb.fs.stat(`${WORKDIR}/.claude/settings.json`)).toEqual({ kind: 'file', size: 3, mtimeMs: MTIME });
    expect(await sb.fs.list(`${WORKDIR}/.claude`)).toEqual([{ name: 'settings.json', kind: 'file' }]);
    expect(await sb.fs.stat('/CLAUDE.md')).toBeNull();
    await expect(sb.fs.list(`${HOME_DIR}/.claude/commands`)).rejects.toMatchObject({ code: 'ENOENT' });
    // What the view cannot vouch for waits for the sandbox.
    const bin = sb.fs.list('/bin');
    expect(await settled(bin)).toBe('pending');
    held.release();
    expect((await bin).length).toBeGreaterThan(10);
    await sb.dispose();
  });

  it('sends a write, and every read asked for after it, to the sandbox', async () => {
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start, view: new BootView(FILES, [], MTIME) });
    const heard: string[][] = [];
    sb.fs.watch((e) => heard.push(e.paths));
    const write = sb.fs.writeFile('CLAUDE.md', 'Rewritten.\n');
    // The view may no longer describe the sandbox: this read waits for it instead of answering.
    const read = sb.fs.readFile('CLAUDE.md');
    expect(await settled(read)).toBe('pending');
    held.release();
    await write;
    await read;
    expect(await sb.fs.readFile('CLAUDE.md')).toBe('Rewritten.\n');
    expect((await sb.fs.list(WORKDIR)).map((e) => e.name)).toEqual(['.claude', 'CLAUDE.md']);
    // A watcher subscribed while it started hears the write.
    expect(heard.flat()).toContain(`${WORKDIR}/CLAUDE.md`);
    await sb.dispose();
  });

  it('runs a command asked for before it is up, once it is; reads after it wait for the sandbox', async () => {
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start, view: new BootView(FILES, [], MTIME) });
    const ran = sb.exec('echo made > made.txt && cat CLAUDE.md');
    const stat = sb.fs.stat('CLAUDE.md');
    expect(await settled(stat)).toBe('pending');
    held.release();
    expect(await ran).toMatchObject({ exitCode: 0, stdout: 'Project notes.\n' });
    expect(await stat).toMatchObject({ kind: 'file' });
    expect(await sb.fs.stat('made.txt')).toMatchObject({ kind: 'file' });
    await sb.dispose();
  });

  it('Stop while a command waits for the sandbox ends it at once (130), and the command never runs', async () => {
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start, view: new BootView(FILES, [], MTIME) });
    const stop = new AbortController();
    const waiting = sb.exec('echo ran > ran.txt', { signal: stop.signal });
    expect(await settled(waiting)).toBe('pending');
    stop.abort();
    // Answered without the sandbox having started.
    expect(await waiting).toMatchObject({ exitCode: 130, aborted: true });
    held.release();
    await sb.ready;
    expect(await sb.fs.stat('ran.txt')).toBeNull();
    await sb.dispose();
  });

  it('says the sandbox did not start, in every call, when it cannot', async () => {
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start, view: new BootView(FILES, [], MTIME) });
    const waiting = sb.fs.list('/bin');
    held.fail('the worker script could not be loaded');
    await expect(sb.ready).rejects.toThrow('The sandbox did not start: the worker script could not be loaded');
    const err = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxFsError);
    expect(err).toMatchObject({ code: 'EIO', message: 'The sandbox did not start: the worker script could not be loaded' });
    // Not even the start files are answered any more: there is no sandbox behind them.
    await expect(sb.fs.readFile('CLAUDE.md')).rejects.toMatchObject({ code: 'EIO' });
    const r = await sb.exec('ls');
    expect(r.exitCode).toBe(126);
    expect(r.stderr).toContain('The sandbox did not start');
  });

  it('disposes a sandbox that arrives after it was disposed, and says when it has', async () => {
    let arrived!: Sandbox;
    const held = heldStart();
    const sb = bootingSandbox({ start: held.start.then((s) => (arrived = s)), view: new BootView(FILES, [], MTIME) });
    // Settles once the sandbox it was starting has arrived and been disposed (a reset's next sandbox waits for that).
    const disposing = sb.dispose();
    expect(await settled(disposing)).toBe('pending');
    held.release();
    await disposing;
    await expect(sb.ready).rejects.toThrow('disposed');
    expect((await arrived.exec('echo hi')).stderr).toContain('disposed');
    await expect(sb.fs.stat('CLAUDE.md')).rejects.toMatchObject({ code: 'EIO' });
  });
});

describe('booting sandbox: the real starts', () => {
  it("a worker's sandbox starts with the modification time the view assumes", async () => {
    const sb = await createWorkerSandbox({ spawn: spawnNodeWorker, files: FILES, mtimeMs: MTIME });
    try {
      const view = new BootView(FILES, [], MTIME);
      for (const path of [WORKDIR, HOME_DIR, `${WORKDIR}/.claude`, `${WORKDIR}/CLAUDE.md`, `${WORKDIR}/.claude/settings.json`]) {
        const a = view.answer('stat', [path]);
        expect(a && 'value' in a ? a.value : 'no answer', path).toEqual(await sb.fs.stat(path));
      }
    } finally {
      await sb.dispose();
    }
  });

  it('bootJustBash hands out a sandbox at once and says which just-bash it got once up', async () => {
    const { sandbox, reason } = bootJustBash({ files: FILES });
    expect(await sandbox.fs.readFile(`${WORKDIR}/CLAUDE.md`)).toBe('Project notes.\n');
    expect(await reason).toBe('just-bash chosen by the scenario for exact replays');
    expect((await sandbox.exec('cat .claude/settings.json')).stdout).toBe('{}\n');
    await sandbox.dispose();
  });
});

describe('booting sandbox: the page’s boot', () => {
  it('a conversation reset while its sandbox starts: disposed as it arrives, and nothing rejects unheard', async () => {
    const { bootScenarioSandbox } = await import('../../src/ui/state/run-sandbox.ts');
    const { firstBuiltinDoc } = await import('../../src/scenarios/library/first.ts');
    const { toRunnableScenario } = await import('../../src/scenarios/migrate.ts');
    const scenario = toRunnableScenario(firstBuiltinDoc);
    const booted = await bootScenarioSandbox(scenario, () => true);
    // The scenario's files are there before it is up, read from what it starts with.
    const [first] = Object.entries(scenario.files);
    expect(await booted.sandbox.fs.readFile(`${WORKDIR}/${first![0]}`)).toBe(first![1]);
    // Dropped, as `bootRunSandbox` drops a boot that is no longer current; vitest fails the file on an unhandled rejection.
    await booted.sandbox.dispose();
    await expect((booted.sandbox as unknown as { ready: Promise<unknown> }).ready).rejects.toThrow('disposed');
  });

  it("a built-in's files go in as it starts, unless a file sits where another needs a folder (the run seeds those, and says why)", async () => {
    const { bootScenarioSandbox, seededAtBoot } = await import('../../src/ui/state/run-sandbox.ts');
    const { firstBuiltinDoc } = await import('../../src/scenarios/library/first.ts');
    const { toRunnableScenario } = await import('../../src/scenarios/migrate.ts');
    const scenario = toRunnableScenario(firstBuiltinDoc);
    const plain = await bootScenarioSandbox(scenario, () => true);
    expect(seededAtBoot(plain.sandbox, scenario.files)).toBe(true);
    const clashing = { ...scenario, files: { notes: 'a file', 'notes/today.md': 'under it' } };
    const other = await bootScenarioSandbox(clashing, () => true);
    expect(seededAtBoot(other.sandbox, clashing.files)).toBe(false);
    expect(await other.sandbox.fs.stat(`${WORKDIR}/notes`)).toBeNull();
    // From outside the app: nothing of the scenario goes in before the trust question.
    const outside = await bootScenarioSandbox(scenario, () => false);
    expect(seededAtBoot(outside.sandbox, scenario.files)).toBe(false);
    for (const b of [plain, other, outside]) await b.sandbox.dispose();
  });
});
