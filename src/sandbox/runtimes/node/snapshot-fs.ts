/**
 * A synchronous view of the sandbox files for one `node` run, because QuickJS (sync build)
 * calls the host synchronously and just-bash's file system is async. The files are read once
 * when the program starts; writes update the view at once (so the program reads its own
 * writes) and are journalled, then `flush` applies them to the real file system in order.
 *
 * Errors are {@link FsOpError}s shaped like Node's (`ENOENT: no such file or directory, open
 * '/workspace/x'`), which the guest turns into ordinary `Error`s with `code`, `syscall`, `path`.
 */
import type { IFileSystem } from 'just-bash';

type Entry = { kind: 'file'; text: string; mtimeMs: number } | { kind: 'dir'; mtimeMs: number };
type JournalOp =
  | { op: 'write'; path: string; text: string }
  | { op: 'mkdir'; path: string }
  | { op: 'rm'; path: string }
  | { op: 'rename'; from: string; to: string };

const ERRNO: Record<string, [number, string]> = {
  ENOENT: [-2, 'no such file or directory'],
  EEXIST: [-17, 'file already exists'],
  EISDIR: [-21, 'illegal operation on a directory'],
  ENOTDIR: [-20, 'not a directory'],
  ENOTEMPTY: [-39, 'directory not empty'],
  EFBIG: [-27, 'file too large'],
};

export class FsOpError extends Error {
  constructor(
    readonly code: string,
    readonly syscall: string,
    readonly path: string,
    dest?: string,
  ) {
    super(`${code}: ${ERRNO[code]?.[1] ?? 'error'}, ${syscall} '${path}'${dest ? ` -> '${dest}'` : ''}`);
  }
  get errno(): number {
    return ERRNO[this.code]?.[0] ?? -1;
  }
}

/** System folders just-bash fills with command stubs and devices: not project files. */
const SKIPPED = /^\/(bin|usr|dev|proc)(\/|$)/;
/** A file bigger than this is left out of the view (reading it fails with EFBIG). */
export const MAX_VIEW_FILE_BYTES = 8 * 1024 * 1024;

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export class SnapshotFs {
  private readonly entries = new Map<string, Entry>();
  private readonly tooBig = new Set<string>();
  private readonly journal: JournalOp[] = [];

  /** Reads every project file of `fs` (everything outside /bin, /usr, /dev, /proc). */
  static async load(fs: IFileSystem): Promise<SnapshotFs> {
    const view = new SnapshotFs();
    view.entries.set('/', { kind: 'dir', mtimeMs: Date.now() });
    for (const path of fs.getAllPaths()) {
      if (path === '/' || SKIPPED.test(path)) continue;
      const st = await fs.stat(path).catch(() => null);
      if (!st) continue;
      const mtimeMs = st.mtime.getTime();
      if (st.isDirectory) view.entries.set(path, { kind: 'dir', mtimeMs });
      else if (st.size > MAX_VIEW_FILE_BYTES) view.tooBig.add(path);
      else view.entries.set(path, { kind: 'file', text: await fs.readFile(path), mtimeMs });
    }
    return view;
  }

  /** Whether anything was written. */
  get dirty(): boolean {
    return this.journal.length > 0;
  }

  stat(path: string): { kind: 'file' | 'dir'; size: number; mtimeMs: number; mode: number } | null {
    const e = this.entries.get(path);
    if (!e) return null;
    return e.kind === 'file'
      ? { kind: 'file', size: new TextEncoder().encode(e.text).length, mtimeMs: e.mtimeMs, mode: 0o100644 }
      : { kind: 'dir', size: 4096, mtimeMs: e.mtimeMs, mode: 0o40755 };
  }

  readFile(path: string, syscall = 'open'): string {
    const e = this.entries.get(path);
    if (!e) throw new FsOpError(this.tooBig.has(path) ? 'EFBIG' : this.parentIsFile(path) ? 'ENOTDIR' : 'ENOENT', syscall, path);
    if (e.kind === 'dir') throw new FsOpError('EISDIR', 'read', path);
    return e.text;
  }

  readdir(path: string): { name: string; kind: 'file' | 'dir' }[] {
    const e = this.entries.get(path);
    if (!e) throw new FsOpError('ENOENT', 'scandir', path);
    if (e.kind !== 'dir') throw new FsOpError('ENOTDIR', 'scandir', path);
    const prefix = path === '/' ? '/' : `${path}/`;
    const out: { name: string; kind: 'file' | 'dir' }[] = [];
    for (const [p, entry] of this.entries) {
      if (p !== path && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')) out.push({ name: p.slice(prefix.length), kind: entry.kind });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  writeFile(path: string, text: string, append: boolean): void {
    const e = this.entries.get(path);
    if (e?.kind === 'dir') throw new FsOpError('EISDIR', 'open', path);
    const parent = this.entries.get(parentOf(path));
    if (!parent) throw new FsOpError('ENOENT', 'open', path);
    if (parent.kind !== 'dir') throw new FsOpError('ENOTDIR', 'open', path);
    const full = append && e?.kind === 'file' ? e.text + text : text;
    this.entries.set(path, { kind: 'file', text: full, mtimeMs: Date.now() });
    this.tooBig.delete(path);
    this.journal.push({ op: 'write', path, text: full });
  }

  /** Returns the first directory created (Node's `recursive` return value), if any. */
  mkdir(path: string, recursive: boolean): string | undefined {
    const e = this.entries.get(path);
    if (e) {
      if (recursive && e.kind === 'dir') return undefined;
      throw new FsOpError('EEXIST', 'mkdir', path);
    }
    const parent = this.entries.get(parentOf(path));
    if (!parent) {
      if (!recursive) throw new FsOpError('ENOENT', 'mkdir', path);
      const first = this.mkdir(parentOf(path), true);
      this.mkdir(path, false);
      return first ?? path;
    }
    if (parent.kind !== 'dir') throw new FsOpError('ENOTDIR', 'mkdir', path);
    this.entries.set(path, { kind: 'dir', mtimeMs: Date.now() });
    this.journal.push({ op: 'mkdir', path });
    return path;
  }

  rm(path: string, recursive: boolean, force: boolean, syscall: 'rm' | 'rmdir' | 'unlink'): void {
    const e = this.entries.get(path);
    if (!e) {
      if (force) return;
      throw new FsOpError('ENOENT', syscall === 'rm' ? 'lstat' : syscall, path);
    }
    if (path === '/') throw new FsOpError('EISDIR', syscall, path);
    const children = [...this.entries.keys()].filter((p) => p.startsWith(`${path}/`));
    if (e.kind === 'dir') {
      if (syscall === 'unlink') throw new FsOpError('EISDIR', 'unlink', path);
      if (syscall === 'rm' && !recursive) throw new FsOpError('EISDIR', 'rm', path);
      if (children.length > 0 && !recursive) throw new FsOpError('ENOTEMPTY', syscall, path);
    } else if (syscall === 'rmdir') {
      throw new FsOpError('ENOTDIR', 'rmdir', path);
    }
    for (const c of children) this.entries.delete(c);
    this.entries.delete(path);
    this.journal.push({ op: 'rm', path });
  }

  rename(from: string, to: string): void {
    const e = this.entries.get(from);
    if (!e) throw new FsOpError('ENOENT', 'rename', from, to);
    if (!this.entries.has(parentOf(to))) throw new FsOpError('ENOENT', 'rename', from, to);
    const moved = [...this.entries].filter(([p]) => p === from || p.startsWith(`${from}/`));
    for (const [p] of moved) this.entries.delete(p);
    for (const [p, entry] of moved) this.entries.set(to + p.slice(from.length), entry);
    this.journal.push({ op: 'rename', from, to });
  }

  cp(from: string, to: string, recursive: boolean): void {
    const e = this.entries.get(from);
    if (!e) throw new FsOpError('ENOENT', 'cp', from, to);
    if (e.kind === 'file') return this.writeFile(to, e.text, false);
    if (!recursive) throw new FsOpError('EISDIR', 'cp', from, to);
    this.mkdir(to, true);
    for (const child of this.readdir(from)) this.cp(`${from}/${child.name}`, `${to}/${child.name}`, true);
  }

  /** Applies the journalled writes to `fs`, oldest first, and empties the journal. */
  async flush(fs: IFileSystem): Promise<void> {
    const ops = this.journal.splice(0);
    for (const op of ops) {
      if (op.op === 'write') await fs.writeFile(op.path, op.text);
      else if (op.op === 'mkdir') await fs.mkdir(op.path, { recursive: true });
      else if (op.op === 'rm') await fs.rm(op.path, { recursive: true, force: true });
      else await fs.mv(op.from, op.to);
    }
  }

  private parentIsFile(path: string): boolean {
    for (let p = parentOf(path); p !== '/'; p = parentOf(p)) if (this.entries.get(p)?.kind === 'file') return true;
    return false;
  }
}
