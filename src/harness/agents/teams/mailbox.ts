/**
 * Mailboxes as files: `.team/inbox/<name>.jsonl`, one message per line, appended under the
 * mailbox's lock (`.team/locks/inbox-<name>.lock`) so many writers never lose a line. The file is
 * the truth: every transport (this page, another tab) writes it, and readers re-read it.
 * Who has read how far is the reader's cursor (`.team/inbox/<name>.read`, a line count).
 */
import type { SandboxFs } from '../../ports.ts';
import { withLock, type LockOptions } from './lock.ts';
import { parseMailbox, type TeamMessage } from './message.ts';

export const TEAM_DIR = '.team';

export const inboxPath = (workdir: string, name: string) => `${workdir}/${TEAM_DIR}/inbox/${name}.jsonl`;
const cursorPath = (workdir: string, name: string) => `${workdir}/${TEAM_DIR}/inbox/${name}.read`;
export const lockPath = (workdir: string, what: string) => `${workdir}/${TEAM_DIR}/locks/${what}.lock`;

async function readText(fs: SandboxFs, path: string): Promise<string> {
  return fs.readFile(path).catch(() => '');
}

/**
 * Appends `message` to its recipient's mailbox; returns how often it waited for the lock, the
 * recipient's unread count, and what it repaired on the way (`problems`): a torn last line (a
 * writer crashed mid-append) is kept for inspection and the message starts on a fresh line, so it
 * is never glued onto the torn one; a read cursor past the end is clamped, so new mail is seen.
 */
export async function appendMessage(fs: SandboxFs, workdir: string, message: TeamMessage, lock: LockOptions): Promise<{ waits: number; unread: number; path: string; problems: string[] }> {
  const path = inboxPath(workdir, message.to);
  const { value, waits } = await withLock(fs, lockPath(workdir, `inbox-${message.to}`), lock, async () => {
    const before = await readText(fs, path);
    const problems: string[] = [];
    const torn = before !== '' && !before.endsWith('\n');
    if (torn) problems.push(`line ${before.split('\n').length} of ${message.to}'s mailbox was torn (no newline at its end: a writer crashed mid-append); kept, and ${message.id} starts on a fresh line`);
    await fs.writeFile(path, `${before}${torn ? '\n' : ''}${JSON.stringify(message)}\n`);
    const total = parseMailbox(before).messages.length;
    const cursor = await clampedCursor(fs, workdir, message.to, total, problems);
    return { unread: total + 1 - cursor, problems };
  });
  return { waits, unread: value.unread, path, problems: value.problems };
}

async function readCursor(fs: SandboxFs, workdir: string, name: string): Promise<number> {
  const n = Number((await readText(fs, cursorPath(workdir, name))).trim());
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The cursor, never past the `total` messages in the file: a cursor past the end (the file was
 * truncated or replaced) would hide every new message, so it is moved back to the end — what is
 * in the file counts as read — written back, and reported in `problems`. Call under the lock.
 */
async function clampedCursor(fs: SandboxFs, workdir: string, name: string, total: number, problems: string[]): Promise<number> {
  const cursor = await readCursor(fs, workdir, name);
  if (cursor <= total) return cursor;
  problems.push(`${name}'s read cursor (${cursor}) was past the end of its mailbox (${total} message(s)); clamped to ${total}, so new mail is delivered`);
  await fs.writeFile(cursorPath(workdir, name), String(total));
  return total;
}

export async function allMessages(fs: SandboxFs, workdir: string, name: string): Promise<TeamMessage[]> {
  return parseMailbox(await readText(fs, inboxPath(workdir, name))).messages;
}

export async function unreadMessages(fs: SandboxFs, workdir: string, name: string): Promise<TeamMessage[]> {
  const all = await allMessages(fs, workdir, name);
  return all.slice(Math.min(all.length, await readCursor(fs, workdir, name)));
}

/** Takes the unread messages and moves the cursor past them (under the same lock as appends). */
export async function takeUnread(fs: SandboxFs, workdir: string, name: string, lock: LockOptions): Promise<{ messages: TeamMessage[]; waits: number; problems: string[] }> {
  const { value, waits } = await withLock(fs, lockPath(workdir, `inbox-${name}`), lock, async () => {
    const parsed = parseMailbox(await readText(fs, inboxPath(workdir, name)));
    const problems = [...parsed.problems];
    const cursor = await clampedCursor(fs, workdir, name, parsed.messages.length, problems);
    const fresh = parsed.messages.slice(cursor);
    if (fresh.length > 0) await fs.writeFile(cursorPath(workdir, name), String(parsed.messages.length));
    return { messages: fresh, problems };
  });
  return { ...value, waits };
}

/**
 * Another tab says `name` read the messages `ids`: moves this tab's cursor past the unread
 * messages it has read (a prefix: each tab's file keeps its own order). Returns the ones passed.
 */
export async function markRead(fs: SandboxFs, workdir: string, name: string, ids: ReadonlySet<string>, lock: LockOptions): Promise<{ messages: TeamMessage[]; waits: number }> {
  const { value, waits } = await withLock(fs, lockPath(workdir, `inbox-${name}`), lock, async () => {
    const all = parseMailbox(await readText(fs, inboxPath(workdir, name))).messages;
    const cursor = await clampedCursor(fs, workdir, name, all.length, []);
    let to = cursor;
    while (to < all.length && ids.has(all[to]!.id)) to++;
    if (to > cursor) await fs.writeFile(cursorPath(workdir, name), String(to));
    return all.slice(cursor, to);
  });
  return { messages: value, waits };
}
