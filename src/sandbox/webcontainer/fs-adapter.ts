/**
 * {@link SandboxFs} over WebContainer's `fs`, which is scoped to its workdir and modelled on
 * Node's `fs.promises` (so its errors carry Node's codes). It has no `stat`, so kinds come from
 * the parent's `readdir`, sizes from reading the file, and mtimes from our own writes (0 for
 * files changed only by commands).
 */
import type { FileSystemAPI } from '@webcontainer/api';
import type { DirEntry, FileStat, SandboxFs } from '../../harness/ports.ts';
import { WORKDIR } from '../../harness/ports.ts';
import { basename, dirname, resolvePath } from '../../harness/util/index.ts';
import { fsFail, toFsError } from '../fs-errors.ts';
import type { WatchHub } from '../watch-hub.ts';
import { toContainerPath } from './workdir-paths.ts';

type Kind = 'file' | 'dir';

export class WebContainerFs implements SandboxFs {
  private readonly mtimes = new Map<string, number>();

  constructor(
    private readonly fs: FileSystemAPI,
    private readonly hub: WatchHub,
  ) {}

  /** Absolute path and its container-relative form; paths outside the workdir are refused. */
  private where(path: string): { abs: string; rel: string } {
    const abs = resolvePath(WORKDIR, path);
    const rel = toContainerPath(abs);
    if (rel === null) fsFail('EPERM', abs, `EPERM: ${abs} is outside ${WORKDIR}; WebContainer's file API only reaches the workdir (use a command instead)`);
    return { abs, rel };
  }

  private async kind(abs: string): Promise<Kind | null> {
    if (abs === WORKDIR) return 'dir';
    const parent = toContainerPath(dirname(abs));
    if (parent === null) return null;
    try {
      const entries = await this.fs.readdir(parent, { withFileTypes: true });
      const hit = entries.find((e) => e.name === basename(abs));
      return hit ? (hit.isDirectory() ? 'dir' : 'file') : null;
    } catch {
      return null;
    }
  }

  private touched(abs: string): void {
    this.mtimes.set(abs, Date.now());
    this.hub.record(abs);
  }

  async readFile(path: string): Promise<string> {
    const { abs, rel } = this.where(path);
    try {
      return await this.fs.readFile(rel, 'utf-8');
    } catch (err) {
      throw toFsError(err, abs);
    }
  }

  writeFile(path: string, content: string): Promise<void> {
    const { abs, rel } = this.where(path);
    return this.hub.flushAfter(async () => {
      if ((await this.kind(abs)) === 'dir') fsFail('EISDIR', abs);
      try {
        const parent = toContainerPath(dirname(abs));
        if (parent && parent !== '.') await this.fs.mkdir(parent, { recursive: true });
        await this.fs.writeFile(rel, content, 'utf-8');
      } catch (err) {
        throw toFsError(err, abs);
      }
      this.touched(abs);
    });
  }

  async list(dir: string): Promise<DirEntry[]> {
    const { abs, rel } = this.where(dir);
    try {
      const entries = await this.fs.readdir(rel, { withFileTypes: true });
      return entries
        .map((e): DirEntry => ({ name: e.name, kind: e.isDirectory() ? 'dir' : 'file' }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      throw toFsError(err, abs);
    }
  }

  async stat(path: string): Promise<FileStat | null> {
    const { abs, rel } = this.where(path);
    const kind = await this.kind(abs);
    if (kind === null) return null;
    let size = 0;
    if (kind === 'file') size = await this.fs.readFile(rel).then((b) => b.byteLength, () => 0);
    return { kind, size, mtimeMs: this.mtimes.get(abs) ?? 0 };
  }

  mkdir(path: string, opts?: { recursive?: boolean }): Promise<void> {
    const { abs, rel } = this.where(path);
    return this.hub.flushAfter(async () => {
      try {
        if (opts?.recursive) await this.fs.mkdir(rel, { recursive: true });
        else await this.fs.mkdir(rel);
      } catch (err) {
        throw toFsError(err, abs);
      }
      this.touched(abs);
    });
  }

  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void> {
    const { abs, rel } = this.where(path);
    return this.hub.flushAfter(async () => {
      if (abs === WORKDIR) fsFail('EPERM', abs);
      const kind = await this.kind(abs);
      if (kind === null && !opts?.force) fsFail('ENOENT', abs);
      if (kind === 'dir' && !opts?.recursive) fsFail('EISDIR', abs);
      if (kind === null) return;
      try {
        await this.fs.rm(rel, { recursive: opts?.recursive ?? false, force: opts?.force ?? false });
      } catch (err) {
        throw toFsError(err, abs);
      }
      this.mtimes.delete(abs);
      this.hub.record(abs);
    });
  }

  rename(from: string, to: string): Promise<void> {
    const src = this.where(from);
    const dst = this.where(to);
    return this.hub.flushAfter(async () => {
      try {
        await this.fs.rename(src.rel, dst.rel);
      } catch (err) {
        throw toFsError(err, src.abs);
      }
      this.mtimes.delete(src.abs);
      this.hub.record(src.abs);
      this.touched(dst.abs);
    });
  }

  /**
   * WebContainer's file API cannot read a link's target, and its `readdir` calls a link neither
   * a file nor a folder. So every existing component under the workdir is looked up: plain files
   * and folders are their own real path; anything else is refused (ENOTSUP) rather than guessed.
   */
  async realpath(path: string): Promise<string> {
    const { abs, rel } = this.where(path);
    let cur = WORKDIR;
    for (const part of rel === '.' ? [] : rel.split('/')) {
      const parent = toContainerPath(cur) ?? '.';
      const entries = await this.fs.readdir(parent, { withFileTypes: true }).catch(() => null);
      const hit = entries?.find((e) => e.name === part);
      if (!hit) return abs;
      if (!hit.isFile() && !hit.isDirectory()) fsFail('ENOTSUP', abs, `ENOTSUP: ${cur}/${part} is a link (or not a plain file); WebContainer's file API cannot tell where it leads`);
      cur = `${cur}/${part}`;
    }
    return abs;
  }

  watch(listener: (event: { paths: string[] }) => void): () => void {
    return this.hub.subscribe(listener);
  }
}
