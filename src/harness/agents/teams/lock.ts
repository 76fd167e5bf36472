/**
 * A lock made of a directory: `mkdir` either creates it or fails with EEXIST, atomically, in every
 * sandbox (and on every real file system), so it works between agents of one page, between tabs
 * sharing the files, and in Node. The holder writes `owner.json` inside. A lock older than
 * `staleMs` (its holder died, a tab closed mid-write) is moved aside and taken over, and the
 * caller is told (`onRecovered`) so the trace shows it. Waits use the Clock port.
 */
import { SandboxFsError, type Clock, type SandboxFs } from '../../ports.ts';

export type LockOptions = {
  clock: Clock;
  /** Who takes the lock (written into it, shown when it is recovered). */
  holder: string;
  /** A lock held longer than this is presumed abandoned. */
  staleMs?: number;
  /** Wait between attempts. */
  retryMs?: number;
  signal?: AbortSignal;
  /** A unique suffix for the moved-aside stale lock. */
  uniq?: () => string;
  onRecovered?: (info: { lock: string; heldBy: string; ageMs: number; staleMs: number }) => void | Promise<void>;
};

export const DEFAULT_LOCK_STALE_MS = 10_000;
export const DEFAULT_LOCK_RETRY_MS = 25;

let stales = 0;

function isCode(err: unknown, code: string): boolean {
  return err instanceof SandboxFsError ? err.code === code : err instanceof Error && err.message.includes(code);
}

async function ownerOf(fs: SandboxFs, lock: string): Promise<{ holder: string; at: number } | null> {
  try {
    return JSON.parse(await fs.readFile(`${lock}/owner.json`)) as { holder: string; at: number };
  } catch {
    return null;
  }
}

/** Runs `fn` holding `lock` (a directory path); returns its result and how many times it waited. */
export async function withLock<T>(fs: SandboxFs, lock: string, opts: LockOptions, fn: () => Promise<T>): Promise<{ value: T; waits: number }> {
  const staleMs = opts.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const retryMs = opts.retryMs ?? DEFAULT_LOCK_RETRY_MS;
  let waits = 0;
  // A lock seen without its owner file (its holder between mkdir and write): aged from first sight.
  let firstSeen: number | null = null;
  for (;;) {
    if (opts.signal?.aborted) throw new Error('The operation was aborted');
    try {
      await fs.mkdir(lock);
      await fs.writeFile(`${lock}/owner.json`, JSON.stringify({ holder: opts.holder, at: opts.clock.now() }));
      break;
    } catch (err) {
      if (isCode(err, 'ENOENT')) {
        await fs.mkdir(lock.slice(0, lock.lastIndexOf('/')), { recursive: true });
        continue;
      }
      if (!isCode(err, 'EEXIST')) throw err;
    }
    const owner = await ownerOf(fs, lock);
    const now = opts.clock.now();
    if (!owner) firstSeen ??= now;
    const age = owner ? now - owner.at : now - firstSeen!;
    if (age > staleMs) {
      // Rename is atomic: of several agents that find the same stale lock, one moves it aside.
      const aside = `${lock}.stale-${opts.uniq?.() ?? ++stales}`;
      try {
        await fs.rename(lock, aside);
      } catch {
        continue;
      }
      await fs.rm(aside, { recursive: true, force: true });
      await opts.onRecovered?.({ lock, heldBy: owner?.holder ?? 'unknown', ageMs: age, staleMs });
      firstSeen = null;
      continue;
    }
    waits++;
    await opts.clock.sleep(retryMs, opts.signal);
  }
  try {
    return { value: await fn(), waits };
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}
