/**
 * Picked or dropped files → the text files of a `.claude/` import, project-relative. The picked
 * folder's own name is dropped (`my-app/.claude/…` → `.claude/…`); `node_modules`, `.git`, binary
 * files and files over 1 MB are left out, each with a note. `userScope` puts the files under
 * `~/.claude/` (the "my own ~/.claude folder" picker).
 */
import type { Upload } from '../files/file-edits.ts';
import { stripPickedRoot, USER_PREFIX } from '../../harness/claude-dir/index.ts';

const MAX_BYTES = 1_000_000;
const SKIP = /(^|\/)(node_modules|\.git)(\/|$)/;

export type PickedFiles = { files: Record<string, string>; notes: string[] };

export function textFilesOf(uploads: readonly Upload[], opts: { userScope?: boolean } = {}): PickedFiles {
  const notes: string[] = [];
  const files: Record<string, string> = {};
  const strip = stripPickedRoot(uploads.map((u) => u.path));
  for (const u of uploads) {
    let path = strip(u.path);
    if (SKIP.test(path)) {
      notes.push(`${path}: skipped (node_modules and .git are not imported)`);
      continue;
    }
    if (u.bytes.length > MAX_BYTES) {
      notes.push(`${path}: skipped (over 1 MB)`);
      continue;
    }
    if (u.bytes.subarray(0, 8000).includes(0)) {
      notes.push(`${path}: skipped (not a text file)`);
      continue;
    }
    // The user's folder: `settings.json` or `.claude/settings.json` both mean ~/.claude/settings.json.
    if (opts.userScope) path = USER_PREFIX + path.replace(/^\.claude\//, '');
    files[path] = new TextDecoder().decode(u.bytes);
  }
  return { files, notes };
}
