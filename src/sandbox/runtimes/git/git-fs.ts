/**
 * The file system isomorphic-git needs (`fs.promises`-style: readFile, writeFile, unlink,
 * readdir, mkdir, rmdir, stat, lstat, readlink, symlink, chmod) over just-bash's, so `.git`
 * lives in the sandbox like any other folder. just-bash's errors carry the code only in their
 * message; isomorphic-git branches on `err.code`, so it is copied onto the error.
 *
 * Linked worktrees (`git worktree add`): isomorphic-git follows a `.git` *file* to the worktree's
 * own directory (`<main>/.git/worktrees/<name>`) but not its `commondir`, so it would look for
 * objects and refs there. With `linked`, every path under that directory except the files that
 * belong to one worktree (HEAD, index, MERGE_HEAD, …) is sent to the main `.git`, as git does.
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

/** A linked worktree's own git directory and the repository's common one. */
export type LinkedGitdir = { gitdir: string; common: string };

/** What stays in a linked worktree's own directory (gitrepository-layout(5)); the rest is shared. */
const PER_WORKTREE = new Set(['HEAD', 'index', 'ORIG_HEAD', 'MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE', 'FETCH_HEAD', 'CHERRY_PICK_HEAD', 'commondir', 'gitdir', 'locked', 'logs/HEAD']);

export function linkedPath(linked: LinkedGitdir | undefined, path: string): string {
  if (!linked || !path.startsWith(`${linked.gitdir}/`)) return path;
  const rel = path.slice(linked.gitdir.length + 1);
  if (PER_WORKTREE.has(rel) || rel.startsWith('refs/worktree/') || rel.startsWith('refs/bisect/')) return path;
  return `${linked.common}/${rel}`;
}

export function gitFs(raw: IFileSystem, linked?: LinkedGitdir): GitFs {
  const fs = linked ? redirected(raw, linked) : raw;
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

/** `raw` with paths inside a linked worktree's git directory sent where git keeps them. */
function redirected(raw: IFileSystem, linked: LinkedGitdir): IFileSystem {
  const to = (p: string) => linkedPath(linked, p);
  return new Proxy(raw, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      // Every method used above takes the path first (symlink: the target, then the path).
      if (key === 'symlink') return (t: string, p: string) => (value as (a: string, b: string) => unknown).call(target, t, to(p));
      return (p: unknown, ...rest: unknown[]) => (value as (...a: unknown[]) => unknown).call(target, typeof p === 'string' ? to(p) : p, ...rest);
    },
  });
}
