import { describe, expect, it } from 'vitest';
import { SandboxFsError } from '../../src/harness/ports.ts';
import { snapshotSandbox as takeSnapshot } from '../../src/harness/session/snapshot.ts';
import { snapshotSandbox, READ_ONLY_EXEC } from '../../src/ui/files/snapshot-sandbox.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import type { SandboxSnapshot } from '../../src/harness/session/types.ts';

const snap: SandboxSnapshot = {
  files: { 'calc.sh': 'echo $((n - 1))\n', 'src/b.ts': 'b', 'src/a.ts': 'aé', 'src/deep/x.txt': 'x' },
  dirs: ['empty', 'src', 'src/deep'],
  skipped: [{ path: 'big.bin', size: 9_000_000 }],
};

async function rejection(p: Promise<unknown>): Promise<SandboxFsError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SandboxFsError);
  return err as SandboxFsError;
}

describe('snapshotSandbox (read-only view of a SandboxSnapshot)', () => {
  const sb = snapshotSandbox(snap);

  it('reads files by absolute or workdir-relative path', async () => {
    expect(sb.workdir).toBe('/home/project');
    expect(await sb.fs.readFile('/home/project/calc.sh')).toBe('echo $((n - 1))\n');
    expect(await sb.fs.readFile('src/a.ts')).toBe('aé');
    expect(await sb.fs.readFile('/home/project/src/../src/deep/x.txt')).toBe('x');
  });

  it('lists directories sorted by name, including empty dirs and skipped files', async () => {
    expect(await sb.fs.list('/home/project')).toEqual([
      { name: 'big.bin', kind: 'file' },
      { name: 'calc.sh', kind: 'file' },
      { name: 'empty', kind: 'dir' },
      { name: 'src', kind: 'dir' },
    ]);
    expect(await sb.fs.list('/home/project/src')).toEqual([
      { name: 'a.ts', kind: 'file' },
      { name: 'b.ts', kind: 'file' },
      { name: 'deep', kind: 'dir' },
    ]);
    expect(await sb.fs.list('/home/project/empty')).toEqual([]);
    expect(await sb.fs.list('/home')).toEqual([{ name: 'project', kind: 'dir' }]);
  });

  it('stats files (UTF-8 size), dirs and missing paths', async () => {
    expect(await sb.fs.stat('src/a.ts')).toMatchObject({ kind: 'file', size: 3 });
    expect(await sb.fs.stat('/home/project/src')).toMatchObject({ kind: 'dir' });
    expect(await sb.fs.stat('/home/project')).toMatchObject({ kind: 'dir' });
    expect(await sb.fs.stat('nope.txt')).toBeNull();
  });

  it('fails reads with POSIX codes', async () => {
    expect((await rejection(sb.fs.readFile('nope.txt'))).code).toBe('ENOENT');
    expect((await rejection(sb.fs.readFile('src'))).code).toBe('EISDIR');
    expect((await rejection(sb.fs.readFile('big.bin'))).code).toBe('EFBIG');
    expect((await rejection(sb.fs.list('calc.sh'))).code).toBe('ENOTDIR');
    expect((await rejection(sb.fs.list('missing'))).code).toBe('ENOENT');
  });

  it('rejects every write with EROFS and leaves the snapshot as it was', async () => {
    for (const op of [
      sb.fs.writeFile('calc.sh', 'changed'),
      sb.fs.mkdir('new', { recursive: true }),
      sb.fs.rm('calc.sh', { force: true }),
      sb.fs.rename('calc.sh', 'moved.sh'),
    ]) {
      const err = await rejection(op);
      expect(err.code).toBe('EROFS');
      expect(err.message).toContain('read-only view of an earlier moment');
    }
    expect(await sb.fs.readFile('calc.sh')).toBe('echo $((n - 1))\n');
    expect(await sb.fs.stat('moved.sh')).toBeNull();
    expect(snap.files['calc.sh']).toBe('echo $((n - 1))\n');
  });

  it('refuses to run commands (exit 126); watch and dispose are harmless', async () => {
    const r = await sb.exec('rm -rf /home/project');
    expect(r.exitCode).toBe(126);
    expect(r.stderr).toContain('read-only view of an earlier moment');
    expect(r.stderr).toBe(READ_ONLY_EXEC);
    const unwatch = sb.fs.watch(() => {
      throw new Error('a snapshot never changes');
    });
    expect(typeof unwatch).toBe('function');
    unwatch();
    await sb.dispose();
    expect(await sb.fs.readFile('calc.sh')).toBe('echo $((n - 1))\n');
  });

  it('round-trips: a snapshot of the view is the snapshot it was made from', async () => {
    const live = await createJustBashSandbox();
    try {
      await live.fs.writeFile('/home/project/src/deep/x.txt', 'x');
      await live.fs.writeFile('/home/project/src/a.ts', 'aé');
      await live.fs.writeFile('/home/project/src/b.ts', 'b');
      await live.fs.writeFile('/home/project/calc.sh', 'echo $((n - 1))\n');
      await live.fs.mkdir('/home/project/empty', { recursive: true });
      const taken = await takeSnapshot(live.fs, live.workdir);
      const again = await takeSnapshot(snapshotSandbox(taken).fs, '/home/project');
      expect(again).toEqual(taken);
    } finally {
      await live.dispose();
    }
  });
});
