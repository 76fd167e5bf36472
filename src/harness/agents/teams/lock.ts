/**
 * A lock made of a directory: `mkdir` either creates it or fails with EEXIST, atomically, in every
 * sandbox (and on every real file system), so it works between agents of one page, between tabs
 * sharing the files, and in Node. The holder writes `owner.json` inside (with a token, so its
 * release removes only its own lock, never a successor's). A lock older than
 * `staleMs` (its holder died, a tab closed mid-write) is moved aside and taken over, and the
 * caller is told (`onRecovered`, with why) so the trace shows it. Waits use the Clock port, honour
 * `signal`, and end in a `LockTimeoutError` after `maxWaitMs`: no lock wait is unbounded.
 */
import { SandboxFsError, type Clock, type SandboxFs } from '../../ports.ts';

export type LockRecovery = { lock: string; heldBy: string; ageMs: number; staleMs: number; why: string };

export type LockOptions = {
  clock: Clock;
  /** Who takes the lock (written into it, shown when it is recovered). */
  holder: string;
  /** A lock held longer than this is presumed abandoned. */
  staleMs?: number;
  /** Wait between attempts. */
  retryMs?: number;
  /** The longest a caller waits for the lock in all (default: `LOCK_WAIT_STALE_FACTOR` × `staleMs`). */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** A unique suffix for the moved-aside stale lock. */
  uniq?: () => string;
  onRecovered?: (info: LockRecovery) => void | Promise<void>;
};

export const DEFAULT_LOCK_STALE_MS = 10_000;
export const DEFAULT_LOCK_RETRY_MS = 25;
/**
 * Any lock goes stale after `staleMs`, so a waiter only keeps waiting while live holders keep
 * taking it in turn; a few stale periods of that is contention nobody can tell from a hang.
 */
export const LOCK_WAIT_STALE_FACTOR = 6;

/** A lock wait that hit its upper bound (the message names the lock, the holder and the wait). */
export class LockTimeoutError extends Error {
  constructor(
    readonly lock: string,
    readonly heldBy: string,
    readonly waitedMs: number,
  ) {
    super(`Gave up waiting for the lock ${lock} after ${waitedMs} ms (held by ${heldBy})`);
    this.name = 'LockTimeoutError';
  }
}

let stales = 0;
let tokens = 0;

/**
 * Takes the lock if it is free (`mkdir` is the atomic step), then writes the owner record. False
 * when the lock exists.
 */
async function tryTake(fs: SandboxFs, lock: string, record: string): Promise<boolean> {
  try {
    await fs.mkdir(lock);
  } catch (err) {
    if (isCode(err, 'ENOENT')) {
      await fs.mkdir(lock.slice(0, lock.lastIndexOf('/')), { recursive: true });
      return tryTake(fs, lock, record);
    }
    if (isCode(err, 'EEXIST')) return false;
    throw err;
  }
  await fs.writeFile(`${lock}/owner.json`, record);
  return true;
}

function isCode(err: unknown, code: string): boolean {
  return err instanceof SandboxFsError ? err.code === code : err instanceof Error && err.message.includes(code);
}

/** Lets go of the lock only if it is still ours (a holder taken for dead must not remove its successor's lock). */
async function release(fs: SandboxFs, lock: string, record: string): Promise<void> {
  const now = await fs.readFile(`${lock}/owner.json`).catch(() => null);
  if (now === record) await fs.rm(lock, { recursive: true, force: true });
}

function abortError(): Error {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  return e;
}

/**
 * What `owner.json` says. `at` is set only when it is a time in the past; anything else (no file
 * yet, not JSON, no numeric `at`, a time in the future) comes with `problem`, and such a lock is
 * aged from when this waiter first saw it, so it too goes stale instead of hanging for ever.
 */
type Owner = { holder: string; at?: number; problem?: string; /** The record as read ('' when missing). */ raw: string };

async function ownerOf(fs: SandboxFs, lock: string, now: number): Promise<Owner> {
  let text: string;
  try {
    text = await fs.readFile(`${lock}/owner.json`);
  } catch {
    return { holder: 'unknown', problem: 'owner.json is missing', raw: '' };
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return { holder: 'unknown', problem: 'owner.json is not JSON', raw: text };
  }
  const r = (record && typeof record === 'object' ? record : {}) as { holder?: unknown; at?: unknown };
  const holder = typeof r.holder === 'string' && r.holder ? r.holder : 'unknown';
  if (typeof r.at !== 'number' || !Number.isFinite(r.at)) return { holder, problem: 'owner.json has no numeric `at`', raw: text };
  if (r.at > now) return { holder, problem: `owner.json's \`at\` is ${r.at - now} ms in the future`, raw: text };
  return { holder, at: r.at, raw: text };
}

/**
 * Moves a stale lock aside (rename is atomic: of several agents that find it stale, one moves it)
 * and checks that what it moved is the record it judged stale: if another recoverer was faster
 * and a new holder took the lock meanwhile, that live lock is put back, not stolen. Returns
 * whether it recovered the stale lock.
 */
async function takeOver(fs: SandboxFs, lock: string, staleRaw: string, aside: string): Promise<boolean> {
  if ((await fs.readFile(`${lock}/owner.json`).catch(() => '')) !== staleRaw) return false;
  try {
    await fs.rename(lock, aside);
  } catch {
    return false;
  }
  const moved = await fs.readFile(`${aside}/owner.json`).catch(() => '');
  if (moved !== staleRaw) {
    const back = await fs.rename(aside, lock).then(
      () => true,
      () => false,
    );
    if (back) return false;
  }
  await fs.rm(aside, { recursive: true, force: true });
  return true;
}

/** Runs `fn` holding `lock` (a directory path); returns its result and how many times it waited. */
export async function withLock<T>(fs: SandboxFs, lock: string, opts: LockOptions, fn: () => Promise<T>): Promise<{ value: T; waits: number }> {
  const staleMs = opts.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const retryMs = opts.retryMs ?? DEFAULT_LOCK_RETRY_MS;
  const maxWaitMs = opts.maxWaitMs ?? LOCK_WAIT_STALE_FACTOR * staleMs;
  const started = opts.clock.now();
  let waits = 0;
  // A lock seen without a usable owner record: aged from first sight of that same record text, so
  // a new holder's lock is not aged by an earlier one's.
  let firstSeen = null as { key: string; at: number } | null;
  let confirmStale: string | null = null;
  // The token makes this holder's record unique, so a release can tell its own lock from a successor's.
  const token = `${++tokens}-${Math.random().toString(36).slice(2, 10)}`;
  let record: string;
  for (;;) {
    if (opts.signal?.aborted) throw abortError();
    record = JSON.stringify({ holder: opts.holder, at: opts.clock.now(), token });
    if (await tryTake(fs, lock, record)) break;
    const now = opts.clock.now();
    const owner = await ownerOf(fs, lock, now);
    let age: number;
    if (owner.at !== undefined) {
      age = now - owner.at;
      firstSeen = null;
    } else {
      // The directory's mtime tells one incarnation of the lock from the next (a holder that
      // released it and another that took it between two of our looks).
      const key = `${(await fs.stat(lock))?.mtimeMs ?? 'gone'}|${owner.raw}`;
      const seen = firstSeen?.key === key ? firstSeen : { key, at: now };
      firstSeen = seen;
      age = now - seen.at;
    }
    // A record without a usable `at` is confirmed stale at two looks a wait apart: a holder just
    // between its mkdir and its owner.json would have written it by then (and this waiter's
    // first sight may date from an earlier incarnation of the lock).
    const confirmed = owner.at !== undefined || confirmStale === firstSeen?.key;
    if (age > staleMs && !confirmed) confirmStale = firstSeen!.key;
    else if (age > staleMs) {
      firstSeen = null;
      confirmStale = null;
      if (await takeOver(fs, lock, owner.raw, `${lock}.stale-${opts.uniq?.() ?? ++stales}`)) {
        const why = owner.problem ? `${owner.problem}; unchanged for ${age} ms` : `held ${age} ms, longer than ${staleMs} ms`;
        await opts.onRecovered?.({ lock, heldBy: owner.holder, ageMs: age, staleMs, why });
      }
      continue;
    }
    if (owner.at !== undefined || age <= staleMs) confirmStale = null;
    const waited = now - started;
    if (waited >= maxWaitMs) throw new LockTimeoutError(lock, owner.holder, waited);
    waits++;
    await opts.clock.sleep(Math.min(retryMs, Math.max(1, maxWaitMs - waited)), opts.signal);
  }
  try {
    return { value: await fn(), waits };
  } finally {
    await release(fs, lock, record);
  }
}
