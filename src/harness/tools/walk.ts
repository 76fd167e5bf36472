/**
 * A depth-first walk over the sandbox file system, shared by `glob` and `grep`. It goes through
 * `ctx.sandbox.fs` only, so it behaves the same in every sandbox.
 */
import type { SandboxFs } from '../ports.ts';

/** Directories no search enters unless asked by name: dependencies and VCS internals. */
export const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Enough for any project a browser sandbox holds; past it the walk stops and says so. */
export const MAX_WALK_ENTRIES = 50_000;

export type WalkResult = {
  /** Absolute paths of files, in walk order (sorted by name within each directory). */
  files: string[];
  /** The walk stopped at {@link MAX_WALK_ENTRIES}. */
  capped: boolean;
  /** Directories that could not be listed. */
  unreadable: string[];
};

export async function walkFiles(
  fs: SandboxFs,
  root: string,
  opts: { skipDirs?: ReadonlySet<string>; signal?: AbortSignal; maxEntries?: number } = {},
): Promise<WalkResult> {
  const skip = opts.skipDirs ?? SKIPPED_DIRS;
  const max = opts.maxEntries ?? MAX_WALK_ENTRIES;
  const result: WalkResult = { files: [], capped: false, unreadable: [] };
  const stack = [root];
  let seen = 0;
  while (stack.length > 0) {
    if (opts.signal?.aborted) break;
    const dir = stack.pop()!;
    let entries;
    try {
      entries = await fs.list(dir);
    } catch {
      result.unreadable.push(dir);
      continue;
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (++seen > max) {
        result.capped = true;
        return result;
      }
      const path = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
      if (entry.kind === 'dir') {
        if (!skip.has(entry.name)) subdirs.push(path);
      } else {
        result.files.push(path);
      }
    }
    // Reverse so the stack pops them in name order.
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k]!);
  }
  return result;
}
