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

/** Appends `message` to its recipient's mailbox; returns how often it waited for the lock and the recipient's unread count. */
export async function appendMessage(fs: SandboxFs, workdir: string, message: TeamMessage, lock: LockOptions): Promise<{ waits: number; unread: number; path: string }> {
  const path = inboxPath(workdir, message.to);
  const { value, waits } = await withLock(fs, lockPath(workdir, `inbox-${message.to}`), lock, async () => {
    const before = await readText(fs, path);
    await fs.writeFile(path, `${before}${JSON.stringify(message)}\n`);
    const total = parseMailbox(before).messages.length + 1;
    return total - (await readCursor(fs, workdir, message.to));
  });
  return { waits, unread: value, path };
}

async function readCursor(fs: SandboxFs, workdir: string, name: string): Promise<number> {
  const n = Number((await readText(fs, cursorPath(workdir, name))).trim());
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export async function allMessages(fs: SandboxFs, workdir: string, name: string): Promise<TeamMessage[]> {
  return parseMailbox(await readText(fs, inboxPath(workdir, name))).messages;
}

export async function unreadMessages(fs: SandboxFs, workdir: string, name: string): Promise<TeamMessage[]> {
  const all = await allMessages(fs, workdir, name);
  return all.slice(await readCursor(fs, workdir, name));
}

/** Takes the unread messages and moves the cursor past them (under the same lock as appends). */
export async function takeUnread(fs: SandboxFs, workdir: string, name: string, lock: LockOptions): Promise<{ messages: TeamMessage[]; waits: number; problems: string[] }> {
  const { value, waits } = await withLock(fs, lockPath(workdir, `inbox-${name}`), lock, async () => {
    const parsed = parseMailbox(await readText(fs, inboxPath(workdir, name)));
    const cursor = await readCursor(fs, workdir, name);
    const fresh = parsed.messages.slice(cursor);
    if (fresh.length > 0) await fs.writeFile(cursorPath(workdir, name), String(parsed.messages.length));
    return { messages: fresh, problems: parsed.problems };
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
    const cursor = await readCursor(fs, workdir, name);
    let to = cursor;
    while (to < all.length && ids.has(all[to]!.id)) to++;
    if (to > cursor) await fs.writeFile(cursorPath(workdir, name), String(to));
    return all.slice(cursor, to);
  });
  return { messages: value, waits };
}
