/**
 * A read-only {@link MemoryFsReader} over a scenario's `files` map (paths relative to the
 * project directory), so the UI can show a scenario's CLAUDE.md files before its sandbox has
 * been seeded.
 */
import { SandboxFsError, WORKDIR } from '../ports.ts';
import { isInside, resolvePath } from '../util/paths.ts';
import type { MemoryFsReader } from './claude-md.ts';

export function recordReader(files: Record<string, string>, workdir = WORKDIR): MemoryFsReader {
  const byPath = new Map(Object.entries(files).map(([p, c]) => [resolvePath(workdir, p), c]));
  const isDir = (path: string) => [...byPath.keys()].some((p) => p !== path && isInside(path, p));
  return {
    async readFile(path) {
      const content = byPath.get(resolvePath(workdir, path));
      if (content === undefined) throw new SandboxFsError('ENOENT', path);
      return content;
    },
    async stat(path) {
      const abs = resolvePath(workdir, path);
      const content = byPath.get(abs);
      if (content !== undefined) return { kind: 'file', size: content.length, mtimeMs: 0 };
      return isDir(abs) ? { kind: 'dir', size: 0, mtimeMs: 0 } : null;
    },
    async list(dir) {
      const abs = resolvePath(workdir, dir);
      const names = new Map<string, 'file' | 'dir'>();
      for (const p of byPath.keys()) {
        if (!isInside(abs, p) || p === abs) continue;
        const [first, ...rest] = p.slice(abs.length + 1).split('/');
        names.set(first!, rest.length > 0 ? 'dir' : 'file');
      }
      return [...names].map(([name, kind]) => ({ name, kind }));
    },
  };
}
