/**
 * Worker side of the page's {@link FileMirror}: turns the paths a command or fs call changed into
 * {@link MirrorEntry}s. A changed directory is walked (a `mv` or `cp -r` records only the
 * directory's own path), but only files that are new or whose size / mtime differ from what was
 * last reported are read and sent, so a write into a big workspace sends one file, not all.
 */
import type { SandboxFs } from '../../harness/ports.ts';
import type { MirrorEntry } from './file-mirror.ts';

/** Device and process trees are the interpreter's own; rebuilding them from copies would be wrong. */
const IGNORED = /^\/(dev|proc)(\/|$)/;

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function under(path: string, dir: string): boolean {
  return dir === '/' ? path !== '/' : path.startsWith(`${dir}/`);
}

export class ChangeCollector {
  /** Path → what the page was last told: 'dir', or the file's `size:mtime`. */
  private readonly reported = new Map<string, string>();

  constructor(private readonly fs: SandboxFs) {}

  /** Records what the page already has (the files the worker was built from) without sending it. */
  async baseline(root: string): Promise<void> {
    await this.walk(root, [], false);
  }

  async collect(paths: readonly string[]): Promise<MirrorEntry[]> {
    const out: MirrorEntry[] = [];
    const walked: string[] = [];
    for (const path of [...paths].sort()) {
      if (IGNORED.test(path) || walked.some((d) => path === d || under(path, d))) continue;
      const st = await this.fs.stat(path);
      if (!st) {
        out.push({ path, kind: 'gone' });
        this.forget(path);
        continue;
      }
      if (st.kind === 'file') {
        // Named by the change itself: always send, even if size and mtime look the same.
        out.push({ path, kind: 'file', content: await this.fs.readFile(path) });
        this.reported.set(path, `${st.size}:${st.mtimeMs}`);
        continue;
      }
      walked.push(path);
      out.push({ path, kind: 'dir' });
      const seen = new Set<string>([path]);
      await this.walk(path, out, true, seen);
      this.reported.set(path, 'dir');
      // Anything reported under it that is no longer there went away without being named.
      for (const key of [...this.reported.keys()]) {
        if (under(key, path) && !seen.has(key)) {
          this.reported.delete(key);
          out.push({ path: key, kind: 'gone' });
        }
      }
    }
    return out;
  }

  private forget(path: string): void {
    this.reported.delete(path);
    for (const key of [...this.reported.keys()]) if (under(key, path)) this.reported.delete(key);
  }

  private async walk(dir: string, out: MirrorEntry[], send: boolean, seen = new Set<string>()): Promise<void> {
    this.reported.set(dir, 'dir');
    for (const entry of await this.fs.list(dir)) {
      const path = join(dir, entry.name);
      if (IGNORED.test(path)) continue;
      seen.add(path);
      const st = await this.fs.stat(path);
      if (!st) continue;
      if (st.kind === 'dir') {
        if (send && this.reported.get(path) !== 'dir') out.push({ path, kind: 'dir' });
        await this.walk(path, out, send, seen);
        continue;
      }
      const sig = `${st.size}:${st.mtimeMs}`;
      if (send && this.reported.get(path) !== sig) out.push({ path, kind: 'file', content: await this.fs.readFile(path) });
      this.reported.set(path, sig);
    }
  }
}
