/**
 * The page's copy of the worker's files, kept so a worker that had to be terminated (a command
 * that ignored its abort, or a crash) can be rebuilt with the files as they were after the last
 * finished operation. Updated from the `changed` messages the worker sends before each reply.
 *
 * Text only: the {@link SandboxFs} port reads files as UTF-8, so a binary file written by a
 * command (gzip output) comes back altered after a rebuild.
 */
import { WORKDIR } from '../../harness/ports.ts';
import { resolvePath } from '../../harness/util/index.ts';

/** One path's state after a change: its content, that it is a directory, or that it is gone. */
export type MirrorEntry =
  | { path: string; kind: 'file'; content: string }
  | { path: string; kind: 'dir' }
  | { path: string; kind: 'gone' };

/** What a new worker starts from. */
export type MirrorInit = { files: Record<string, string>; dirs: string[] };

type Node = { kind: 'file'; content: string } | { kind: 'dir' };

export class FileMirror {
  private readonly nodes = new Map<string, Node>();

  /** Seeds the mirror with the sandbox's initial files (absolute or workdir-relative paths). */
  constructor(files: Record<string, string> = {}) {
    this.nodes.set(WORKDIR, { kind: 'dir' });
    for (const [path, content] of Object.entries(files)) this.nodes.set(resolvePath(WORKDIR, path), { kind: 'file', content });
  }

  apply(entries: readonly MirrorEntry[]): void {
    for (const e of entries) {
      if (e.kind === 'gone') {
        this.nodes.delete(e.path);
        const prefix = e.path === '/' ? '/' : `${e.path}/`;
        for (const key of [...this.nodes.keys()]) if (key.startsWith(prefix)) this.nodes.delete(key);
      } else {
        this.nodes.set(e.path, e.kind === 'file' ? { kind: 'file', content: e.content } : { kind: 'dir' });
      }
    }
  }

  /** Files and directories (empty ones included) to rebuild a worker from; sorted, so parents come first. */
  toInit(): MirrorInit {
    const files: Record<string, string> = {};
    const dirs: string[] = [];
    for (const [path, node] of [...this.nodes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (node.kind === 'file') files[path] = node.content;
      else dirs.push(path);
    }
    return { files, dirs };
  }
}
