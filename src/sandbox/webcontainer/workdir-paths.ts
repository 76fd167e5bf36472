/**
 * WebContainer's `fs` resolves every path against its workdir, while our contract speaks in
 * absolute paths under {@link WORKDIR}. These translate between the two.
 */
import { WORKDIR } from '../../harness/ports.ts';
import { isInside, relativeTo, resolvePath } from '../../harness/util/index.ts';

/**
 * `path` (absolute, or relative to our workdir) as the workdir-relative path WebContainer's
 * fs wants (`.` for the workdir itself), or `null` when it lies outside the workdir.
 */
export function toContainerPath(path: string, workdir: string = WORKDIR): string | null {
  const abs = resolvePath(workdir, path);
  if (!isInside(workdir, abs)) return null;
  return relativeTo(workdir, abs);
}

/** A container-relative path back to our absolute form. */
export function fromContainerPath(path: string, workdir: string = WORKDIR): string {
  return resolvePath(workdir, path);
}
