/**
 * A read-only `Sandbox` over a `SandboxSnapshot` from the session log: what the Files panel shows
 * when the learner has stepped back, so the tree and the viewer read the files as they were at
 * that event through the same port they use for the live sandbox.
 *
 * Reads come from the snapshot; every write rejects with EROFS and `exec` refuses (exit 126),
 * because changing the past would silently diverge from the log. Files the snapshot skipped (too
 * large) are listed but cannot be read.
 */
import { SandboxFsError, WORKDIR, type DirEntry, type ExecResult, type FileStat, type Sandbox, type SandboxFs } from '../../harness/ports.ts';
import type { SandboxSnapshot } from '../../harness/session/light.ts';
import { normalizePath, relativeTo } from '../../harness/util/index.ts';

/** What a refused `exec` says. */
export const READ_ONLY_EXEC = 'read-only view of an earlier moment: step forward to the live run to run commands';

type Node = { kind: 'file'; content: string | null; size: number } | { kind: 'dir' };

const READ_ONLY = (path: string) => new SandboxFsError('EROFS', path, `EROFS: ${path} is a read-only view of an earlier moment; step forward to the live run to change files`);

/** The snapshot's files and directories by absolute path, with the workdir and its ancestors as directories. */
function indexOf(snap: SandboxSnapshot, workdir: string): Map<string, Node> {
  const nodes = new Map<string, Node>();
  const addDirs = (abs: string) => {
    for (let p = abs; ; p = p.slice(0, Math.max(1, p.lastIndexOf('/')))) {
      if (nodes.get(p)?.kind === 'dir') break;
      nodes.set(p, { kind: 'dir' });
      if (p === '/') break;
    }
  };
  const abs = (rel: string) => normalizePath(`${workdir}/${rel}`);
  addDirs(normalizePath(workdir));
  for (const d of snap.dirs) addDirs(abs(d));
  for (const s of snap.skipped) {
    const p = abs(s.path);
    addDirs(p.slice(0, Math.max(1, p.lastIndexOf('/'))));
    nodes.set(p, { kind: 'file', content: null, size: s.size });
  }
  for (const [rel, content] of Object.entries(snap.files)) {
    const p = abs(rel);
    addDirs(p.slice(0, Math.max(1, p.lastIndexOf('/'))));
    nodes.set(p, { kind: 'file', content, size: new TextEncoder().encode(content).length });
  }
  return nodes;
}

/** A read-only sandbox showing `snap` under `workdir` (default /home/project). */
export function snapshotSandbox(snap: SandboxSnapshot, workdir: string = WORKDIR): Sandbox {
  const nodes = indexOf(snap, workdir);
  const resolve = (path: string) => normalizePath(path.startsWith('/') ? path : `${workdir}/${path}`);

  const fs: SandboxFs = {
    readFile(path) {
      const p = resolve(path);
      const node = nodes.get(p);
      if (!node) return Promise.reject(new SandboxFsError('ENOENT', p, `ENOENT: ${p} did not exist at this moment`));
      if (node.kind === 'dir') return Promise.reject(new SandboxFsError('EISDIR', p));
      if (node.content === null) {
        return Promise.reject(new SandboxFsError('EFBIG', p, `EFBIG: ${p} (${node.size} bytes) was too large to keep in the session's snapshot`));
      }
      return Promise.resolve(node.content);
    },
    list(dir) {
      const d = resolve(dir);
      const node = nodes.get(d);
      if (!node) return Promise.reject(new SandboxFsError('ENOENT', d, `ENOENT: ${d} did not exist at this moment`));
      if (node.kind !== 'dir') return Promise.reject(new SandboxFsError('ENOTDIR', d));
      const out: DirEntry[] = [];
      for (const [p, n] of nodes) {
        if (p === d || p === '/') continue;
        const rel = relativeTo(d, p);
        if (rel.startsWith('/') || rel.includes('/')) continue;
        out.push({ name: rel, kind: n.kind });
      }
      out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return Promise.resolve(out);
    },
    stat(path) {
      const node = nodes.get(resolve(path));
      const st: FileStat | null = !node ? null : { kind: node.kind, size: node.kind === 'file' ? node.size : 0, mtimeMs: 0 };
      return Promise.resolve(st);
    },
    writeFile: (path) => Promise.reject(READ_ONLY(resolve(path))),
    mkdir: (path) => Promise.reject(READ_ONLY(resolve(path))),
    rm: (path) => Promise.reject(READ_ONLY(resolve(path))),
    rename: (from) => Promise.reject(READ_ONLY(resolve(from))),
    // A snapshot keeps files and folders only, no links: every path is its own real path.
    realpath: (path) => Promise.resolve(resolve(path)),
    // Nothing ever changes here.
    watch: () => () => {},
  };

  return {
    // The kind of the sandbox it was taken from is not recorded; just-bash is the portable default.
    kind: 'just-bash',
    workdir,
    fs,
    exec(): Promise<ExecResult> {
      return Promise.resolve({ stdout: '', stderr: READ_ONLY_EXEC, exitCode: 126, timedOut: false, aborted: false, truncated: false });
    },
    dispose: () => Promise.resolve(),
  };
}
