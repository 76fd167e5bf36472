/**
 * Which files `node --test` runs, by Node's rules: with no paths, every file under the
 * current directory (outside `node_modules` and dot-folders) that matches
 * `**\/*.test.{js,mjs,cjs}`, `*-test.*`, `*_test.*`, `test-*.*`, `test.*`, or lies under a
 * `test/` folder; a path argument is a file, or a folder searched the same way. Sorted.
 */
import { resolvePath } from '../../../harness/util/index.ts';
import type { SnapshotFs } from './snapshot-fs.ts';

const JS = /\.(c|m)?js$/;
const NAMED = /(^|\/)([^/]*[.\-_]test|test-[^/]*|test)\.(c|m)?js$/;

function walk(fs: SnapshotFs, dir: string, underTest: boolean, out: string[]): void {
  for (const e of fs.readdir(dir)) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const path = `${dir === '/' ? '' : dir}/${e.name}`;
    if (e.kind === 'dir') walk(fs, path, underTest || e.name === 'test', out);
    else if (JS.test(e.name) && (underTest || NAMED.test(e.name))) out.push(path);
  }
}

/** Returns the files, or the first argument that names nothing. */
export function findTestFiles(fs: SnapshotFs, cwd: string, args: string[]): { files: string[] } | { missing: string } {
  const out: string[] = [];
  if (args.length === 0) walk(fs, cwd, false, out);
  for (const arg of args) {
    const path = resolvePath(cwd, arg);
    const st = fs.stat(path);
    if (!st) return { missing: arg };
    if (st.kind === 'file') out.push(path);
    else walk(fs, path, false, out);
  }
  return { files: [...new Set(out)].sort() };
}
