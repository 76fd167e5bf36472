/**
 * Sandbox snapshots: the files under a root at one moment, so a fork can put the sandbox back as
 * it was at any point of a session. Walks through the `SandboxFs` port only, so it works for
 * just-bash and WebContainer alike.
 *
 * A session stores snapshots as deltas (`SnapshotTracker`): only the files whose content hash
 * changed since the previous snapshot, so a long session with a few edits per turn stays small.
 * `snapshotAt(log, atSeq)` folds the deltas back into the whole picture.
 */
import { hash53 } from '../context/hash.ts';
import type { SandboxFs } from '../ports.ts';
import { isProjectRelativePath } from '../util/paths.ts';
import type { SandboxSnapshot, SessionLogEvent, SnapshotDelta } from './types.ts';

export type SnapshotOptions = {
  /** Files larger than this are left out (and listed in `skipped`). Default 512 KiB. */
  maxFileBytes?: number;
  /** Directory names not walked into, and left alone by a restore. Default `node_modules`, `.git`. */
  skipDirs?: readonly string[];
};

const DEFAULT_MAX_FILE = 512 * 1024;
const DEFAULT_SKIP = ['node_modules', '.git'];

const join = (root: string, rel: string) => (rel === '' ? root : `${root.replace(/\/$/, '')}/${rel}`);

/** How many reads a snapshot keeps in flight at once (each is a round trip to a worker sandbox). */
const READS_IN_FLIGHT = 8;

/**
 * Every file (content) and directory under `root`, paths relative to it, in the order of a
 * depth-first walk. The reads overlap (up to {@link READS_IN_FLIGHT}): with the sandbox in a
 * worker each is a round trip, and one after another they were most of what the first Step of a
 * recorded session waited for.
 */
export async function snapshotSandbox(fs: SandboxFs, root: string, opts: SnapshotOptions = {}): Promise<SandboxSnapshot> {
  const maxFile = opts.maxFileBytes ?? DEFAULT_MAX_FILE;
  const skip = new Set(opts.skipDirs ?? DEFAULT_SKIP);
  const snap: SandboxSnapshot = { files: {}, dirs: [], skipped: [] };
  if ((await fs.stat(root))?.kind !== 'dir') return snap;
  const limit = inFlight(READS_IN_FLIGHT);
  // Each entry says what it adds; they are applied in walk order once all are read.
  type Part = (s: SandboxSnapshot) => void;
  const walk = async (rel: string): Promise<Part[]> => {
    const entries = await limit(() => fs.list(join(root, rel)));
    const parts = await Promise.all(
      entries.map(async (entry): Promise<Part[]> => {
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.kind === 'dir') {
          if (skip.has(entry.name)) return [];
          return [(s) => void s.dirs.push(path), ...(await walk(path))];
        }
        const st = await limit(() => fs.stat(join(root, path)));
        if (st && st.size > maxFile) return [(s) => void s.skipped.push({ path, size: st.size })];
        const content = await limit(() => fs.readFile(join(root, path)));
        return [(s) => void (s.files[path] = content)];
      }),
    );
    return parts.flat();
  };
  for (const apply of await walk('')) apply(snap);
  snap.dirs.sort();
  return snap;
}

/** Runs the tasks given to it with at most `n` of them pending at a time. */
function inFlight(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its place straight to the next waiting one.
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Makes the sandbox under `root` match `snap`: removes files and directories the snapshot does
 * not have, creates its directories, writes the files whose content differs. Files the snapshot
 * skipped (too large) and skipped directories are left as they are.
 */
export async function restoreSnapshot(fs: SandboxFs, root: string, snap: SandboxSnapshot, opts: SnapshotOptions = {}): Promise<{ written: string[]; removed: string[] }> {
  // A stored log is outside input too: a path that would leave the project is never followed.
  const outside = [...Object.keys(snap.files), ...snap.dirs, ...snap.skipped.map((s) => s.path)].find((p) => !isProjectRelativePath(p));
  if (outside !== undefined) throw new Error(`the snapshot names a path outside the project (${JSON.stringify(outside)}); nothing was restored`);
  const current = await snapshotSandbox(fs, root, { ...opts, maxFileBytes: Number.MAX_SAFE_INTEGER });
  const keepSkipped = new Set(snap.skipped.map((s) => s.path));
  const wantedDirs = new Set(snap.dirs);
  const removed: string[] = [];
  for (const path of Object.keys(current.files)) {
    if (!(path in snap.files) && !keepSkipped.has(path)) {
      await fs.rm(join(root, path), { force: true });
      removed.push(path);
    }
  }
  // Deepest first, and only directories no kept file lives in.
  const keptPaths = [...Object.keys(snap.files), ...keepSkipped];
  for (const dir of [...current.dirs].sort((a, b) => b.length - a.length)) {
    if (wantedDirs.has(dir) || keptPaths.some((p) => p.startsWith(`${dir}/`))) continue;
    await fs.rm(join(root, dir), { recursive: true, force: true });
    removed.push(`${dir}/`);
  }
  for (const dir of snap.dirs) await fs.mkdir(join(root, dir), { recursive: true });
  const written: string[] = [];
  for (const [path, content] of Object.entries(snap.files)) {
    if (current.files[path] === content) continue;
    await fs.writeFile(join(root, path), content);
    written.push(path);
  }
  return { written, removed };
}

/**
 * Turns successive snapshots into deltas against the previous one (by content hash). Start it
 * empty for a new session, or from `snapshotAt(log)` when resuming or forking, so the first delta
 * of the continuation is small too.
 */
export class SnapshotTracker {
  private hashes = new Map<string, string>();
  private dirs: string[] | null = null;

  constructor(previous?: SandboxSnapshot | null) {
    if (previous) this.remember(previous);
  }

  /** Whether a snapshot was seen yet (the next delta is then not `full`). */
  get started(): boolean {
    return this.dirs !== null;
  }

  /** Takes a snapshot and returns what changed, or null when nothing did. */
  async take(fs: SandboxFs, root: string, opts: SnapshotOptions = {}): Promise<SnapshotDelta | null> {
    return this.diff(await snapshotSandbox(fs, root, opts));
  }

  /** The delta from the last snapshot to `snap` (and remembers `snap`); null when equal. */
  diff(snap: SandboxSnapshot): SnapshotDelta | null {
    const full = !this.started;
    const files: Record<string, string> = {};
    for (const [path, content] of Object.entries(snap.files)) {
      if (full || this.hashes.get(path) !== hashOf(content)) files[path] = content;
    }
    const removed = full ? [] : [...this.hashes.keys()].filter((p) => !(p in snap.files)).sort();
    const dirsChanged = full || !sameList(this.dirs ?? [], snap.dirs);
    const delta: SnapshotDelta = {
      full,
      files,
      removed,
      ...(dirsChanged ? { dirs: [...snap.dirs] } : {}),
      skipped: snap.skipped,
    };
    this.remember(snap);
    if (!full && Object.keys(files).length === 0 && removed.length === 0 && !dirsChanged) return null;
    return delta;
  }

  private remember(snap: SandboxSnapshot): void {
    this.hashes = new Map(Object.entries(snap.files).map(([p, c]) => [p, hashOf(c)]));
    this.dirs = [...snap.dirs];
  }
}

/** Length + two 53-bit hashes: a collision that hides a change is not a practical concern. */
function hashOf(content: string): string {
  return `${content.length}:${hash53(content).toString(36)}:${hash53(content, 7).toString(36)}`;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Applies one delta to a whole snapshot, giving the next whole snapshot. */
export function applyDelta(base: SandboxSnapshot | null, delta: SnapshotDelta): SandboxSnapshot {
  const files = delta.full || !base ? {} : { ...base.files };
  for (const p of delta.removed) delete files[p];
  Object.assign(files, delta.files);
  return { files, dirs: delta.dirs ?? base?.dirs ?? [], skipped: delta.skipped };
}

/**
 * The sandbox as of log seq `atSeq` (default: the end): the fold of every `session.snapshot` in
 * entries 1..atSeq. Null when the log has no snapshot there.
 */
export function snapshotAt(log: readonly SessionLogEvent[], atSeq = log.length): SandboxSnapshot | null {
  let snap: SandboxSnapshot | null = null;
  for (let i = 0; i < Math.min(atSeq, log.length); i++) {
    const e = log[i]!;
    if (e.type === 'session.snapshot') snap = applyDelta(snap, e.delta);
  }
  return snap;
}
