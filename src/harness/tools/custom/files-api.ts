/**
 * The file API a JS custom tool sees (`UserToolFiles`): read, write and list, confined to the
 * project directory. A path that leaves it (`../`, `/etc/…`) is refused before the sandbox is
 * touched, so a tool cannot read the user's home (`~/.ssh`) through this door.
 */
import type { DirEntry, Sandbox, UserToolFiles } from '../../ports.ts';
import { resolvePath } from '../../util/paths.ts';

export function projectFiles(sandbox: Sandbox, cwd: string): UserToolFiles {
  const root = sandbox.workdir;
  const inside = (path: string): string => {
    if (typeof path !== 'string' || path === '') throw new Error('files: a path is required');
    const abs = resolvePath(cwd, path);
    if (abs !== root && !abs.startsWith(`${root}/`)) throw new Error(`files: "${path}" is outside the project (${root}); custom tools may only touch project files`);
    return abs;
  };
  return {
    read: async (path) => sandbox.fs.readFile(inside(path)),
    write: async (path, content) => {
      if (typeof content !== 'string') throw new Error('files.write: the content must be a string');
      await sandbox.fs.writeFile(inside(path), content);
    },
    list: async (dir): Promise<DirEntry[]> => sandbox.fs.list(inside(dir || '.')),
  };
}
