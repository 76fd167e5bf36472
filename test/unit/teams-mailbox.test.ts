/**
 * Mailboxes and claims on the real just-bash file system: many writers under the mkdir lock lose
 * no message; a stale lock is recovered (and reported); many claimers racing for tasks give each
 * task exactly one owner, decided by checkClaim under the board's lock.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { appendMessage, allMessages, claimNextTask, lockPath, takeUnread, withLock, type TeamMessage } from '../../src/harness/agents/teams/index.ts';
import { readTasks, writeTask } from '../../src/harness/agents/tasks/store.ts';
import type { Task } from '../../src/harness/agents/tasks/graph.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const msg = (i: number, to = 'bob'): TeamMessage => ({ id: `msg-${i}`, from: `writer-${i % 7}`, to, type: 'message', body: `hello ${i}`, ts: i });
const task = (id: string, blockedBy: string[] = []): Task => ({ id, subject: `task ${id}`, description: '', status: 'pending', blockedBy, createdAt: 0, updatedAt: 0 });

describe('mailbox files', () => {
  it('many concurrent writers under the lock lose no message', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => appendMessage(sb.fs, sb.workdir, msg(i), { clock, holder: `writer-${i}`, retryMs: 1 })));
    const all = await allMessages(sb.fs, sb.workdir, 'bob');
    expect(all).toHaveLength(40);
    expect(new Set(all.map((m) => m.id))).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `msg-${i}`)));
    // They really contended: some writers found the lock held and waited.
    expect(results.reduce((n, r) => n + r.waits, 0)).toBeGreaterThan(0);
    // The lock is gone afterwards.
    expect(await sb.fs.stat(lockPath(sb.workdir, 'inbox-bob'))).toBeNull();
  });

  it('without the lock the same writers do lose messages (why the lock exists)', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const path = `${sb.workdir}/.team/inbox/bob.jsonl`;
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const before = await sb.fs.readFile(path).catch(() => '');
        await sb.fs.writeFile(path, `${before}${JSON.stringify(msg(i))}\n`);
      }),
    );
    expect((await allMessages(sb.fs, sb.workdir, 'bob')).length).toBeLessThan(20);
  });

  it('recovers a stale lock left by a dead holder, says so, and delivers the message', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(100_000, 1);
    const lock = lockPath(sb.workdir, 'inbox-bob');
    await sb.fs.mkdir(lock, { recursive: true });
    await sb.fs.writeFile(`${lock}/owner.json`, JSON.stringify({ holder: 'crashed-tab', at: 1_000 }));
    const recovered: { heldBy: string; ageMs: number }[] = [];
    const r = await appendMessage(sb.fs, sb.workdir, msg(1), { clock, holder: 'alice', staleMs: 10_000, onRecovered: (i) => void recovered.push(i) });
    expect(recovered).toHaveLength(1);
    expect(recovered[0]!.heldBy).toBe('crashed-tab');
    expect(recovered[0]!.ageMs).toBeGreaterThan(10_000);
    expect(r.unread).toBe(1);
    expect(await allMessages(sb.fs, sb.workdir, 'bob')).toHaveLength(1);
  });

  it('waits for a fresh lock (on the Clock) instead of stealing it, and recovers it once it is stale', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    const lock = lockPath(sb.workdir, 'x');
    await sb.fs.mkdir(lock, { recursive: true });
    await sb.fs.writeFile(`${lock}/owner.json`, JSON.stringify({ holder: 'slow', at: 0 }));
    let recoveries = 0;
    const { waits } = await withLock(sb.fs, lock, { clock, holder: 'me', staleMs: 1_000, retryMs: 100, onRecovered: () => void recoveries++ }, async () => 'ok');
    // At exactly 1 000 ms it is not yet older than the limit: 11 waits of 100 ms.
    expect(waits).toBe(11);
    expect(clock.sleeps.every((ms) => ms === 100)).toBe(true);
    expect(recoveries).toBe(1);
  });

  it('a reader takes each message once; its cursor moves past them', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock();
    for (let i = 0; i < 3; i++) await appendMessage(sb.fs, sb.workdir, msg(i), { clock, holder: 'w' });
    expect((await takeUnread(sb.fs, sb.workdir, 'bob', { clock, holder: 'bob' })).messages).toHaveLength(3);
    expect((await takeUnread(sb.fs, sb.workdir, 'bob', { clock, holder: 'bob' })).messages).toHaveLength(0);
    const r = await appendMessage(sb.fs, sb.workdir, msg(9), { clock, holder: 'w' });
    expect(r.unread).toBe(1);
  });
});

describe('claiming', () => {
  it('of many claimers racing for one ready task, exactly one owns it', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    await writeTask(sb.fs, sb.workdir, task('1'));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => claimNextTask(sb.fs, sb.workdir, `agent-${i}`, { clock, holder: `agent-${i}`, retryMs: 1 })));
    const winners = results.filter((r) => r.task);
    expect(winners).toHaveLength(1);
    const { tasks } = await readTasks(sb.fs, sb.workdir);
    expect(tasks[0]!.owner).toBe(winners[0]!.task!.owner);
    expect(tasks[0]!.status).toBe('in_progress');
    expect(results.reduce((n, r) => n + r.waits, 0)).toBeGreaterThan(0);
  });

  it('many claimers over many tasks: every ready task one owner, none twice; blocked tasks wait', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const clock = new FakeClock(0, 0);
    for (let i = 1; i <= 6; i++) await writeTask(sb.fs, sb.workdir, task(String(i)));
    await writeTask(sb.fs, sb.workdir, task('7', ['1']));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => claimNextTask(sb.fs, sb.workdir, `a${i}`, { clock, holder: `a${i}`, retryMs: 1 })));
    const claimed = results.filter((r) => r.task).map((r) => r.task!.id);
    expect(claimed.sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    const { tasks } = await readTasks(sb.fs, sb.workdir);
    expect(tasks.find((t) => t.id === '7')!.owner).toBeUndefined();
    // Completing #1 unblocks #7 for the next claimer.
    await writeTask(sb.fs, sb.workdir, { ...tasks.find((t) => t.id === '1')!, status: 'completed' });
    expect((await claimNextTask(sb.fs, sb.workdir, 'late', { clock, holder: 'late' })).task?.id).toBe('7');
    void SequentialIds;
  });
});
