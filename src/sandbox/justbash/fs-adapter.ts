/**
 * {@link SandboxFs} over just-bash's in-memory file system. InMemoryFs is lenient where POSIX is
 * not (it writes over directories, mkdirs under files, removes directories without `recursive`),
 * so the POSIX errors of our contract are checked here before delegating.
 */
import type { IFileSystem } from 'just-bash';
import { WORKDIR } from '../../harness/ports.ts';
import type { DirEntry, FileStat, SandboxFs } from '../../harness/ports.ts';
import { dirname, normalizePath, resolvePath } from '../../harness/util/index.ts';
import { fsFail as fail, toFsError } from '../fs-errors.ts';
import { resolveLinks } from '../resolve-links.ts';
import type { WatchHub } from '../watch-hub.ts';

type Kind = 'file' | 'dir';

export class JustBashFs implements SandboxFs {
  constructor(
    private readonly fs: IFileSystem,
    private readonly hub: WatchHub,
  ) {}

  private abs(path: string): string {
    return resolvePath(WORKDIR, path);
  }

  /** What is at `path` (following symlinks), or null. */
  private async kind(path: string): Promise<Kind | null> {
    try {
      const st = await this.fs.stat(path);
      return st.isDirectory ? 'dir' : 'file';
    } catch {
      return null;
    }
  }

  /** ENOTDIR when an ancestor of `path` is a file; ENOENT (when `mustExist`) when one is missing. */
  private async checkAncestors(path: string, mustExist: boolean): Promise<void> {
    const parts = normalizePath(path).split('/').filter(Boolean);
    let cur = '';
    for (const part of parts.slice(0, -1)) {
      cur += '/' + part;
      const k = await this.kind(cur);
      if (k === 'file') fail('ENOTDIR', path);
      if (k === null) {
        if (mustExist) fail('ENOENT', path);
        return;
      }
    }
  }

  async readFile(path: string): Promise<string> {
    const p = this.abs(path);
    const k = await this.kind(p);
    if (k === 'dir') fail('EISDIR', p);
    if (k === null) {
      await this.checkAncestors(p, true);
      fail('ENOENT', p);
    }
    try {
      return await this.fs.readFile(p, 'utf8');
    } catch (err) {
      throw toFsError(err, p);
    }
  }

  writeFile(path: string, content: string): Promise<void> {
    const p = this.abs(path);
    return this.hub.flushAfter(async () => {
      if ((await this.kind(p)) === 'dir') fail('EISDIR', p);
      await this.checkAncestors(p, false);
      try {
        await this.fs.mkdir(dirname(p), { recursive: true });
        await this.fs.writeFile(p, content, 'utf8');
      } catch (err) {
        throw toFsError(err, p);
      }
    });
  }

  async list(dir: string): Promise<DirEntry[]> {
    const p = this.abs(dir);
    const k = await this.kind(p);
    if (k === null) fail('ENOENT', p);
    if (k === 'file') fail('ENOTDIR', p);
    let names: string[];
    try {
      names = await this.fs.readdir(p);
    } catch (err) {
      throw toFsError(err, p);
    }
    const entries: DirEntry[] = [];
    for (const name of names) {
      const child = p === '/' ? `/${name}` : `${p}/${name}`;
      entries.push({ name, kind: (await this.kind(child)) === 'dir' ? 'dir' : 'file' });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string): Promise<FileStat | null> {
    const p = this.abs(path);
    try {
      const st = await this.fs.stat(p);
      return {
        kind: st.isDirectory ? 'dir' : 'file',
        size: st.isDirectory ? 0 : st.size,
        mtimeMs: st.mtime.getTime(),
      };
    } catch {
      return null;
    }
  }

  mkdir(path: string, opts?: { recursive?: boolean }): Promise<void> {
    const p = this.abs(path);
    return this.hub.flushAfter(async () => {
      const k = await this.kind(p);
      if (k === 'file') fail('EEXIST', p);
      if (k === 'dir') {
        if (opts?.recursive) return;
        fail('EEXIST', p);
      }
      await this.checkAncestors(p, !opts?.recursive);
      try {
        await this.fs.mkdir(p, { recursive: opts?.recursive ?? false });
      } catch (err) {
        throw toFsError(err, p);
      }
    });
  }

  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void> {
    const p = this.abs(path);
    return this.hub.flushAfter(async () => {
      const k = await this.kind(p);
      if (k === null) {
        if (opts?.force) return;
        fail('ENOENT', p);
      }
      if (k === 'dir' && !opts?.recursive) fail('EISDIR', p);
      if (p === '/' || p === WORKDIR) fail('EPERM', p);
      try {
        await this.fs.rm(p, { recursive: opts?.recursive ?? false, force: opts?.force ?? false });
      } catch (err) {
        throw toFsError(err, p);
      }
    });
  }

  rename(from: string, to: string): Promise<void> {
    const src = this.abs(from);
    const dst = this.abs(to);
    return this.hub.flushAfter(async () => {
      const k = await this.kind(src);
      if (k === null) fail('ENOENT', src);
      if (src === dst) return;
      if (k === 'dir' && (dst + '/').startsWith(src + '/')) fail('EINVAL', dst);
      const target = await this.kind(dst);
      // `mv` would move into an existing directory; rename(2) semantics replace or refuse.
      if (target === 'dir') fail('EISDIR', dst);
      if (target === 'file' && k === 'dir') fail('ENOTDIR', dst);
      await this.checkAncestors(dst, true);
      try {
        await this.fs.mv(src, dst);
      } catch (err) {
        throw toFsError(err, src);
      }
    });
  }

  realpath(path: string): Promise<string> {
    return resolveLinks(this.abs(path), {
      lstat: (p) => this.fs.lstat(p).catch(() => null),
      readlink: (p) => this.fs.readlink(p),
    });
  }

  watch(listener: (event: { paths: string[] }) => void): () => void {
    return this.hub.subscribe(listener);
  }
}
