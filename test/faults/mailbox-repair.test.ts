/**
 * Issue 20 §2: a torn last line (a crash mid-append) and a read cursor past the end never hide
 * the next message; both are reported, and the torn record stays in the file for inspection.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/harness/index.ts';
import { allMessages, appendMessage, inboxPath, takeUnread, type TeamMessage } from '../../src/harness/agents/teams/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const msg = (i: number): TeamMessage => ({ id: `msg-${i}`, from: 'lead', to: 'bob', type: 'message', body: `hello ${i}`, ts: i });
const lock = (holder: string) => ({ clock: new FakeClock(), holder });

describe('a torn last line', () => {
  it('does not swallow the next message: it starts on a fresh line, the torn record is kept and reported', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const path = inboxPath(sb.workdir, 'bob');
    const torn = JSON.stringify(msg(1)).slice(0, 25);
    await sb.fs.writeFile(path, torn);
    const sent = await appendMessage(sb.fs, sb.workdir, msg(2), lock('lead'));
    expect(sent.problems.join(' ')).toMatch(/line 1 of bob's mailbox was torn .*msg-2 starts on a fresh line/);
    expect(sent.unread).toBe(1);
    const read = await takeUnread(sb.fs, sb.workdir, 'bob', lock('bob'));
    expect(read.messages.map((m) => m.id)).toEqual(['msg-2']);
    expect(read.problems).toEqual([expect.stringMatching(/^line 1 is not a message/)]);
    expect((await sb.fs.readFile(path)).startsWith(`${torn}\n`)).toBe(true);
  });
});

describe('a read cursor past the end', () => {
  it('is clamped when mail arrives, reported, and the new message is delivered', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    await sb.fs.writeFile(`${sb.workdir}/.team/inbox/bob.read`, '9');
    const sent = await appendMessage(sb.fs, sb.workdir, msg(1), lock('lead'));
    expect(sent.unread).toBe(1);
    expect(sent.problems).toEqual([expect.stringMatching(/bob's read cursor \(9\) was past the end of its mailbox \(0 message\(s\)\); clamped to 0/)]);
    expect((await takeUnread(sb.fs, sb.workdir, 'bob', lock('bob'))).messages.map((m) => m.id)).toEqual(['msg-1']);
  });

  it('is clamped by the reader too (the mailbox was truncated and nothing arrived since), so the next message is seen', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    await appendMessage(sb.fs, sb.workdir, msg(1), lock('lead'));
    await sb.fs.writeFile(`${sb.workdir}/.team/inbox/bob.read`, '5');
    const first = await takeUnread(sb.fs, sb.workdir, 'bob', lock('bob'));
    expect(first.messages).toEqual([]);
    expect(first.problems).toEqual([expect.stringMatching(/read cursor \(5\) was past the end .*clamped to 1/)]);
    // Written straight into the file (another tab's copy, a bash `echo >>`): no append saw the cursor.
    await sb.fs.writeFile(inboxPath(sb.workdir, 'bob'), `${await sb.fs.readFile(inboxPath(sb.workdir, 'bob'))}${JSON.stringify(msg(2))}\n`);
    expect((await takeUnread(sb.fs, sb.workdir, 'bob', lock('bob'))).messages.map((m) => m.id)).toEqual(['msg-2']);
    expect(await allMessages(sb.fs, sb.workdir, 'bob')).toHaveLength(2);
  });
});
