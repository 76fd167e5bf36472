/**
 * Contract cases for the file system: `fs` operations and their POSIX error codes, `realpath`,
 * fs and exec seeing the same files, `watch`, and output streamed through `onOutput`.
 */
import { HOME_DIR, SandboxFsError, WORKDIR } from '../../harness/ports.ts';
import { expectEqual, expectExit, expectFsError, expectTrue } from './assert.ts';
import type { ContractCase } from './assert.ts';

export const fsCases: ContractCase[] = [
  {
    name: 'fs: write, read, list (sorted), stat, mkdir, rm, rename',
    async run(sb) {
      await sb.fs.writeFile('deep/nested/file.txt', 'abc');
      expectEqual(await sb.fs.readFile('deep/nested/file.txt'), 'abc', 'writeFile created parents');
      await sb.fs.writeFile('deep/b.txt', '1');
      await sb.fs.writeFile('deep/a.txt', '22');
      await sb.fs.writeFile('deep/a.txt', '333');
      expectEqual(await sb.fs.list('deep'), [
        { name: 'a.txt', kind: 'file' },
        { name: 'b.txt', kind: 'file' },
        { name: 'nested', kind: 'dir' },
      ], 'list(deep)');
      const st = await sb.fs.stat('deep/a.txt');
      expectEqual([st?.kind, st?.size], ['file', 3], 'stat of a file after overwrite');
      expectTrue(typeof st?.mtimeMs === 'number' && st.mtimeMs > 0, 'mtimeMs is set', st);
      expectEqual((await sb.fs.stat('deep'))?.kind, 'dir', 'stat of a dir');
      expectEqual(await sb.fs.stat('nothing-here'), null, 'stat of nothing');
      await sb.fs.mkdir('made');
      await sb.fs.mkdir('made/x/y', { recursive: true });
      await sb.fs.mkdir('made', { recursive: true });
      expectEqual((await sb.fs.stat('made/x/y'))?.kind, 'dir', 'recursive mkdir');
      await sb.fs.rename('deep/b.txt', 'made/moved.txt');
      expectEqual([await sb.fs.stat('deep/b.txt'), await sb.fs.readFile('made/moved.txt')], [null, '1'], 'rename moved the file');
      await sb.fs.rename('made/x', 'renamed-dir');
      expectEqual((await sb.fs.stat('renamed-dir/y'))?.kind, 'dir', 'rename of a directory');
      await sb.fs.rm('deep/a.txt');
      await sb.fs.rm('deep', { recursive: true });
      await sb.fs.rm('never-existed', { force: true });
      expectEqual(await sb.fs.stat('deep'), null, 'rm -r removed the tree');
    },
  },
  {
    name: 'fs errors carry POSIX codes',
    async run(sb) {
      await sb.fs.writeFile('dir/file.txt', 'x');
      await expectFsError(sb.fs.readFile('missing.txt'), 'ENOENT', 'readFile of a missing file');
      await expectFsError(sb.fs.readFile('dir'), 'EISDIR', 'readFile of a directory');
      await expectFsError(sb.fs.writeFile('dir', 'x'), 'EISDIR', 'writeFile over a directory');
      await expectFsError(sb.fs.list('dir/file.txt'), 'ENOTDIR', 'list of a file');
      await expectFsError(sb.fs.list('missing-dir'), 'ENOENT', 'list of nothing');
      await expectFsError(sb.fs.mkdir('dir'), 'EEXIST', 'mkdir of an existing dir');
      await expectFsError(sb.fs.mkdir('a/b/c'), 'ENOENT', 'mkdir without parents');
      await expectFsError(sb.fs.rm('dir'), 'EISDIR', 'rm of a dir without recursive');
      await expectFsError(sb.fs.rm('missing.txt'), 'ENOENT', 'rm of nothing without force');
      await expectFsError(sb.fs.rename('missing.txt', 'b.txt'), 'ENOENT', 'rename of nothing');
      await expectFsError(sb.fs.writeFile('dir/file.txt/inner.txt', 'x'), 'ENOTDIR', 'writeFile under a file');
    },
  },
  {
    name: 'fs.realpath resolves symbolic links (or refuses with ENOTSUP where it cannot see them)',
    async run(sb) {
      await sb.fs.writeFile('real/file.txt', 'x');
      expectEqual(await sb.fs.realpath('real/file.txt'), `${WORKDIR}/real/file.txt`, 'a plain file is its own real path');
      expectEqual(await sb.fs.realpath('real/not-yet/new.txt'), `${WORKDIR}/real/not-yet/new.txt`, 'a path that does not exist is kept as written');
      expectExit(await sb.exec(`ln -s ${HOME_DIR} homelink && ln -s real rel && ln -s ${HOME_DIR}/planted.txt dangling`), 0, 'ln -s');
      const seen = async (p: string): Promise<string> => sb.fs.realpath(p).catch((err: unknown) => (err instanceof SandboxFsError && err.code === 'ENOTSUP' ? 'ENOTSUP' : Promise.reject(err)));
      const homes = [await seen('homelink/x.txt'), await seen('dangling')];
      expectTrue(homes.every((p) => p === 'ENOTSUP' || p.startsWith(`${HOME_DIR}/`)), 'a link out of the project resolves outside it (a folder link, a dangling link)', homes);
      const inside = await seen('rel/file.txt');
      expectTrue(inside === 'ENOTSUP' || inside === `${WORKDIR}/real/file.txt`, 'a relative link is read from its own folder', inside);
      await sb.exec('rm -f homelink rel dangling');
    },
  },
  {
    name: 'fs and exec see the same files',
    async run(sb) {
      await sb.fs.writeFile('from-fs.txt', 'written by fs\n');
      expectEqual((await sb.exec('cat from-fs.txt')).stdout, 'written by fs\n', 'cat sees fs.writeFile');
      expectExit(await sb.exec('mkdir -p out && echo "written by exec" > out/from-exec.txt'), 0, 'echo > file');
      expectEqual(await sb.fs.readFile('out/from-exec.txt'), 'written by exec\n', 'fs sees echo >');
      expectExit(await sb.exec('rm from-fs.txt'), 0, 'rm in exec');
      expectEqual(await sb.fs.stat('from-fs.txt'), null, 'fs sees rm');
    },
  },
  {
    name: 'watch notifies after fs changes and after exec, until unsubscribed',
    async run(sb) {
      const events: string[][] = [];
      const stop = sb.fs.watch((e) => events.push(e.paths));
      await sb.fs.writeFile('watched.txt', 'x');
      expectTrue(events.length >= 1, 'notified after writeFile', events);
      expectTrue(events.flat().some((p) => p.endsWith('watched.txt') || p === WORKDIR), 'paths name the change', events);
      const before = events.length;
      await sb.exec('echo y > by-exec.txt');
      expectTrue(events.length > before, 'notified after exec', events);
      expectTrue(events.slice(before).flat().some((p) => p.endsWith('by-exec.txt') || p === WORKDIR), 'exec paths name the change', events);
      stop();
      const count = events.length;
      await sb.fs.writeFile('after-stop.txt', 'z');
      await sb.exec('echo z > after-stop-2.txt');
      expectEqual(events.length, count, 'no events after unsubscribe');
    },
  },
  {
    name: 'onOutput receives the command output',
    async run(sb) {
      const chunks: { stream: string; text: string }[] = [];
      const r = await sb.exec('echo streamed; echo oops >&2', { onOutput: (c) => chunks.push(c) });
      const out = chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join('');
      const all = chunks.map((c) => c.text).join('');
      expectTrue(out.includes('streamed'), 'stdout chunk delivered', chunks);
      expectTrue(all.includes('oops'), 'stderr text delivered', chunks);
      expectTrue(r.stdout.includes('streamed'), 'result still has the output', r);
    },
  },
];
