/**
 * POSIX-coded errors for the {@link SandboxFs} implementations, with messages that say what
 * was wrong in words the model (and the user) can act on.
 */
import { SandboxFsError } from '../harness/ports.ts';

export function describeFsError(code: string, path: string, fallback?: string): string {
  switch (code) {
    case 'ENOENT':
      return `ENOENT: no such file or directory: ${path}`;
    case 'EISDIR':
      return `EISDIR: ${path} is a directory`;
    case 'ENOTDIR':
      return `ENOTDIR: ${path} (or one of its parents) is not a directory`;
    case 'EEXIST':
      return `EEXIST: ${path} already exists`;
    case 'ENOTEMPTY':
      return `ENOTEMPTY: directory ${path} is not empty`;
    case 'EPERM':
      return `EPERM: operation not permitted on ${path}`;
    case 'EINVAL':
      return `EINVAL: invalid target ${path} (a directory cannot move inside itself)`;
    default:
      return fallback ?? `${code}: ${path}`;
  }
}

export function fsFail(code: string, path: string, message?: string): never {
  throw new SandboxFsError(code, path, message ?? describeFsError(code, path));
}

const KNOWN_CODES = /\b(ENOENT|EISDIR|ENOTDIR|EEXIST|ENOTEMPTY|EPERM|EACCES|EINVAL|ELOOP|EBUSY|EXDEV|ENAMETOOLONG)\b/;

/** Maps a Node-style error (`ENOENT: no such file …`, or one with a `code`) to a {@link SandboxFsError}. */
export function toFsError(err: unknown, path: string): SandboxFsError {
  if (err instanceof SandboxFsError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const own = (err as { code?: unknown } | null)?.code;
  // Node-style codes (`ENOENT`), Node's `ERR_FS_EISDIR`, or the code named inside the message.
  const fromOwn = typeof own === 'string' ? /^(?:ERR_FS_)?(E[A-Z]+)$/.exec(own)?.[1] : undefined;
  const code = fromOwn ?? KNOWN_CODES.exec(message)?.[1] ?? 'EIO';
  return new SandboxFsError(code, path, describeFsError(code, path, message));
}
