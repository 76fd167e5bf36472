/**
 * The file system isomorphic-git needs (`fs.promises`-style: readFile, writeFile, unlink,
 * readdir, mkdir, rmdir, stat, lstat, readlink, symlink, chmod) over just-bash's, so `.git`
 * lives in the sandbox like any other folder. just-bash's errors carry the code only in their
 * message; isomorphic-git branches on `err.code`, so it is copied onto the error.
 */
import type { PromiseFsClient } from 'isomorphic-git';
import type { IFileSystem } from 'just-bash';

type Stat = {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  uid: number;
  gid: number;
  dev: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
};

function withCode(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = /^(E[A-Z]+):/.exec(e.message)?.[1];
  if (code && !(e as { code?: string }).code) (e as { code?: string }).code = code;
  return e;
}

async function guard<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw withCode(err);
  }
}

let inode = 1;
const inodes = new Map<string, number>();

function toStat(path: string, st: { isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean; mode: number; size: number; mtime: Date }): Stat {
  const type = st.isSymbolicLink ? 'symlink' : st.isDirectory ? 'dir' : 'file';
  const exec = (st.mode & 0o111) !== 0;
  const mode = type === 'dir' ? 0o40000 : type === 'symlink' ? 0o120000 : exec ? 0o100755 : 0o100644;
  let ino = inodes.get(path);
  if (ino === undefined) inodes.set(path, (ino = inode++));
  const ms = st.mtime.getTime();
  return {
    type,
    mode,
    size: st.size,
    ino,
    mtimeMs: ms,
    ctimeMs: ms,
    uid: 1000,
    gid: 1000,
    dev: 1,
    isFile: () => type === 'file',
    isDirectory: () => type === 'dir',
    isSymbolicLink: () => type === 'symlink',
  };
}

export type GitFs = PromiseFsClient;

export function gitFs(fs: IFileSystem): GitFs {
  const promises = {
    async readFile(path: string, opts?: { encoding?: string } | string): Promise<string | Uint8Array> {
      const encoding = typeof opts === 'string' ? opts : opts?.encoding;
      if (encoding === 'utf8' || encoding === 'utf-8') return guard(fs.readFile(path));
      const bytes = await guard(fs.readFileBuffer(path));
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async writeFile(path: string, data: string | Uint8Array): Promise<void> {
      await guard(fs.writeFile(path, typeof data === 'string' ? data : new Uint8Array(data)));
    },
    async unlink(path: string): Promise<void> {
      const st = await guard(fs.lstat(path));
      if (st.isDirectory) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, unlink '${path}'`), { code: 'EISDIR' });
      await guard(fs.rm(path));
    },
    async readdir(path: string): Promise<string[]> {
      return guard(fs.readdir(path));
    },
    async mkdir(path: string): Promise<void> {
      await guard(fs.mkdir(path));
    },
    async rmdir(path: string): Promise<void> {
      const entries = await guard(fs.readdir(path));
      if (entries.length > 0) throw Object.assign(new Error(`ENOTEMPTY: directory not empty, rmdir '${path}'`), { code: 'ENOTEMPTY' });
      await guard(fs.rm(path, { recursive: true }));
    },
    async stat(path: string): Promise<Stat> {
      return toStat(path, await guard(fs.stat(path)));
    },
    async lstat(path: string): Promise<Stat> {
      return toStat(path, await guard(fs.lstat(path)));
    },
    async readlink(path: string): Promise<string> {
      return guard(fs.readlink(path));
    },
    async symlink(target: string, path: string): Promise<void> {
      await guard(fs.symlink(target, path));
    },
    async chmod(path: string, mode: number): Promise<void> {
      await guard(fs.chmod(path, mode));
    },
  };
  return { promises: promises as unknown as PromiseFsClient['promises'] };
}
