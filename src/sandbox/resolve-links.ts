/**
 * `realpath` for a file system that can tell a symbolic link from a file (`lstat`) and read its
 * target (`readlink`): one component at a time, as the kernel does, so a link anywhere on the
 * way — a folder link (`homelink -> /home/user`) or a dangling last component (`out -> /etc/x`,
 * which `writeFile` would create through) — is followed. Components that do not exist are kept
 * as written, so a write target can be checked before it exists.
 */
import { SandboxFsError } from '../harness/ports.ts';
import { normalizePath } from '../harness/util/index.ts';

/** What the walk needs from a file system; `lstat` resolves null when nothing is at the path. */
export type LinkOps = {
  lstat(path: string): Promise<{ isSymbolicLink: boolean } | null>;
  readlink(path: string): Promise<string>;
};

/** Linux gives up after 40 links on one path (ELOOP); so do we. */
const MAX_LINKS = 40;

const parts = (path: string): string[] => path.split('/').filter((p) => p !== '' && p !== '.');

/** `path` (absolute, normalised) with every symbolic link in it resolved. */
export async function resolveLinks(path: string, ops: LinkOps): Promise<string> {
  const queue = parts(normalizePath(path));
  let resolved = '/';
  let links = 0;
  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '..') {
      resolved = normalizePath(`${resolved}/..`);
      continue;
    }
    const next = resolved === '/' ? `/${part}` : `${resolved}/${part}`;
    const st = await ops.lstat(next);
    if (!st?.isSymbolicLink) {
      resolved = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new SandboxFsError('ELOOP', path, `ELOOP: too many symbolic links while resolving ${path}`);
    const target = await ops.readlink(next);
    // A relative target is read from the link's own folder.
    if (target.startsWith('/')) resolved = '/';
    queue.unshift(...parts(target));
  }
  return resolved;
}
