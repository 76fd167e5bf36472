/**
 * Reading and writing a whole working tree through `SandboxFs`: the snapshot a workspace starts
 * from, and the copy it works in. Dependencies and VCS internals are left out, as every search does.
 */
import type { SandboxFs } from '../ports.ts';
import { walkFiles } from '../tools/walk.ts';
import { relativeTo } from '../util/paths.ts';

/** Every file under `root` as relative path → content. */
export async function readTree(fs: SandboxFs, root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const stat = await fs.stat(root);
  if (!stat || stat.kind !== 'dir') return out;
  const walk = await walkFiles(fs, root);
  for (const file of walk.files) {
    // A linked git worktree's `.git` is a file pointing at the repository: VCS internals too.
    if (file.endsWith('/.git')) continue;
    out.set(relativeTo(root, file), await fs.readFile(file));
  }
  return out;
}

export async function writeTree(fs: SandboxFs, root: string, files: ReadonlyMap<string, string>): Promise<void> {
  await fs.mkdir(root, { recursive: true });
  for (const [path, content] of files) await fs.writeFile(`${root}/${path}`, content);
}
