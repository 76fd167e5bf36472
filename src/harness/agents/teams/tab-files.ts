/**
 * The files a teammate in another tab works on. It joins with a copy of the lead's working tree
 * (`welcome`), works in its own tab's sandbox, and sends back what it changed against that copy
 * (`offer`) at the end of each wake-up; the lead's tab keeps the copy as an isolated workspace of
 * the teammate and merges it back (overlaps refused) when the teammate finishes. The team's
 * `.tasks/` and `.team/` are never part of the copy: they are synced note by note.
 *
 * Everything that arrives over the wire is checked: a path must stay inside the working tree.
 */
import type { SandboxFs } from '../../ports.ts';
import { dirname, isInside, resolvePath } from '../../util/paths.ts';
import { readTree } from '../../workspace/tree.ts';
import type { Task } from '../tasks/graph.ts';
import { readTasks, TASKS_DIR, writeTask } from '../tasks/store.ts';
import { byCodeUnits } from '../../util/order.ts';
import { withLock, type LockOptions } from './lock.ts';
import { lockPath, TEAM_DIR } from './mailbox.ts';
import type { OfferedFile } from './transport.ts';

const isShared = (rel: string) => [TASKS_DIR, TEAM_DIR].some((d) => rel === d || rel.startsWith(`${d}/`));

/** A relative path from another tab, or null when it would leave the working tree. */
function safe(workdir: string, rel: string): string | null {
  if (typeof rel !== 'string' || rel === '' || rel.startsWith('/')) return null;
  const abs = resolvePath(workdir, rel);
  return isInside(workdir, abs) && abs !== workdir ? abs : null;
}

/** The working tree without the team's shared folders, as relative path → content. */
export async function workingFiles(fs: SandboxFs, workdir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [rel, content] of await readTree(fs, workdir)) if (!isShared(rel)) out[rel] = content;
  return out;
}

/** Makes this tab's working tree the welcome's copy: writes its files, removes the rest (not `.tasks/`, `.team/`). */
export async function takeCopy(fs: SandboxFs, workdir: string, files: Record<string, string>): Promise<{ written: number; refused: string[] }> {
  const refused: string[] = [];
  let written = 0;
  for (const [rel, content] of Object.entries(files)) {
    const abs = safe(workdir, rel);
    if (!abs || typeof content !== 'string') {
      refused.push(rel);
      continue;
    }
    await fs.mkdir(dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
    written++;
  }
  for (const rel of Object.keys(await workingFiles(fs, workdir))) if (!(rel in files)) await fs.rm(`${workdir}/${rel}`).catch(() => {});
  return { written, refused };
}

/** What this tab changed against the copy it was welcomed with. */
export async function changesAgainst(fs: SandboxFs, workdir: string, base: Record<string, string>): Promise<OfferedFile[]> {
  const now = await workingFiles(fs, workdir);
  const out: OfferedFile[] = [];
  for (const [rel, content] of Object.entries(now)) if (base[rel] !== content) out.push({ path: rel, content });
  for (const rel of Object.keys(base)) if (!(rel in now)) out.push({ path: rel, content: null });
  return out.sort((a, b) => byCodeUnits(a.path, b.path));
}

/**
 * Writes an offer into the teammate's copy in this tab (`fs`/`workdir` are the copy's view): the
 * offered files, and back to `base` whatever an earlier offer changed that this one no longer does.
 * Returns the offered paths (for the next offer) and any path refused as outside the tree.
 */
export async function applyOffer(fs: SandboxFs, workdir: string, base: Record<string, string>, files: OfferedFile[], before: ReadonlySet<string>): Promise<{ paths: Set<string>; refused: string[] }> {
  const paths = new Set<string>();
  const refused: string[] = [];
  for (const f of files) {
    const abs = safe(workdir, f.path);
    if (!abs || isShared(f.path) || (f.content !== null && typeof f.content !== 'string')) {
      refused.push(String(f.path));
      continue;
    }
    paths.add(f.path);
    if (f.content === null) await fs.rm(abs).catch(() => {});
    else {
      await fs.mkdir(dirname(abs), { recursive: true });
      await fs.writeFile(abs, f.content);
    }
  }
  for (const rel of before) {
    if (paths.has(rel)) continue;
    const abs = `${workdir}/${rel}`;
    if (rel in base) await fs.writeFile(abs, base[rel]!);
    else await fs.rm(abs).catch(() => {});
  }
  return { paths, refused };
}

/** Writes tasks from another tab into this tab's board under the board's lock; `replace`: the board becomes exactly `tasks`. */
export async function writeBoard(fs: SandboxFs, workdir: string, tasks: Task[], lock: LockOptions, replace = false): Promise<Task[]> {
  const { value } = await withLock(fs, lockPath(workdir, 'tasks'), lock, async () => {
    if (replace) {
      const ids = new Set(tasks.map((t) => t.id));
      for (const t of (await readTasks(fs, workdir)).tasks) if (!ids.has(t.id)) await fs.rm(`${workdir}/${TASKS_DIR}/${t.id}.json`).catch(() => {});
    }
    for (const t of tasks) if (typeof t?.id === 'string' && /^[0-9]+$/.test(t.id)) await writeTask(fs, workdir, t);
    return (await readTasks(fs, workdir)).tasks;
  });
  return value;
}
