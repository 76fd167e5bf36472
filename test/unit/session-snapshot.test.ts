import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun } from '../../src/harness/session/persist-run.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import { restoreSnapshot, snapshotAt, snapshotSandbox, SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import type { SandboxSnapshot } from '../../src/harness/session/types.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { setup } from './loop-helpers.ts';

const ROOT = '/home/project';

describe('snapshotSandbox / restoreSnapshot on just-bash', () => {
  it('captures files and directories (empty ones too), skipping large files and node_modules', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'A', 'src/b.ts': 'B', 'big.bin': 'x'.repeat(2000), 'node_modules/p/i.js': 'n' } });
    await sb.fs.mkdir(`${ROOT}/empty`);
    const snap = await snapshotSandbox(sb.fs, ROOT, { maxFileBytes: 1000 });
    expect(snap.files).toEqual({ 'a.txt': 'A', 'src/b.ts': 'B' });
    expect(snap.dirs).toEqual(['empty', 'src']);
    expect(snap.skipped).toEqual([{ path: 'big.bin', size: 2000 }]);
  });

  it('restores: removes what is new, rewrites what changed, recreates what went, leaves skipped files', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'A', 'src/b.ts': 'B', 'big.bin': 'x'.repeat(2000) } });
    await sb.fs.mkdir(`${ROOT}/empty`);
    const snap = await snapshotSandbox(sb.fs, ROOT, { maxFileBytes: 1000 });
    await sb.exec('rm -r src empty && echo changed > a.txt && mkdir -p new/deep && echo n > new/deep/n.txt && echo y > big.bin');
    const r = await restoreSnapshot(sb.fs, ROOT, snap);
    expect(r.written.sort()).toEqual(['a.txt', 'src/b.ts']);
    const after = await snapshotSandbox(sb.fs, ROOT, { maxFileBytes: 1000 });
    // big.bin was too large to snapshot, so the restore left the newer (now small) one alone.
    expect(after.files).toEqual({ ...snap.files, 'big.bin': 'y\n' });
    expect(after.dirs).toEqual(snap.dirs);
    expect(await sb.fs.readFile(`${ROOT}/big.bin`)).toBe('y\n'); // too large to snapshot: left alone
  });
});

describe('SnapshotTracker', () => {
  it('stores only what changed, nothing when nothing did, and folds back to the whole', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'A', 'b.txt': 'B' } });
    const t = new SnapshotTracker();
    const d1 = (await t.take(sb.fs, ROOT))!;
    expect(d1.full).toBe(true);
    expect(Object.keys(d1.files).sort()).toEqual(['a.txt', 'b.txt']);
    expect(await t.take(sb.fs, ROOT)).toBeNull();
    await sb.exec('echo A2 > a.txt && rm b.txt && mkdir d && echo C > d/c.txt');
    const d2 = (await t.take(sb.fs, ROOT))!;
    expect(d2).toEqual({ full: false, files: { 'a.txt': 'A2\n', 'd/c.txt': 'C\n' }, removed: ['b.txt'], dirs: ['d'], skipped: [] });
    const log = [
      { type: 'session.snapshot' as const, ts: 1, delta: d1 },
      { type: 'session.snapshot' as const, ts: 2, delta: d2 },
    ];
    expect(snapshotAt(log, 1)?.files).toEqual({ 'a.txt': 'A', 'b.txt': 'B' });
    expect(snapshotAt(log)).toEqual(await snapshotSandbox(sb.fs, ROOT));
    // A tracker resumed from the log continues with deltas, not a full copy.
    expect(await new SnapshotTracker(snapshotAt(log)).take(sb.fs, ROOT)).toBeNull();
  });
});

describe('fork at a middle event restores that moment', () => {
  it('the forked log gives the conversation and the files of that moment', async () => {
    const s = await setup(
      [
        { content: [{ type: 'tool_use', id: 'w1', name: 'write', input: { file_path: 'notes.txt', content: 'v1\n' } }] },
        { content: [{ type: 'tool_use', id: 'b1', name: 'bash', input: { command: 'echo v2 > notes.txt && mkdir out && echo r > out/r.txt && rm seed.txt' } }] },
        { content: [{ type: 'text', text: 'All done.' }] },
      ],
      { files: { 'seed.txt': 'seed' } },
    );
    const clock = s.clock as FakeClock;
    const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
    const created = await store.create({ title: 'original' });
    if (!created.ok) throw new Error();
    const writer = new SessionLogWriter(store, created.value.id);
    const gen = persistRun(agentLoop(s.input, s.deps), {
      writer,
      clock,
      snapshots: { fs: s.deps.sandbox.fs, root: ROOT, tracker: new SnapshotTracker() },
    });
    // What the files were when each sandbox.changed event was handed to the UI.
    const seen: SandboxSnapshot[] = [];
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      if (step.value.type === 'sandbox.changed') seen.push(await snapshotSandbox(s.deps.sandbox.fs, ROOT));
    }
    const full = await store.load(created.value.id);
    if (!full.ok) throw new Error();
    const changedAt = full.value.flatMap((e, i) => (e.type === 'sandbox.changed' ? [i + 1] : []));
    expect(changedAt).toHaveLength(2);

    // Fork at the first change (after the write tool, before the bash call).
    const fork = await store.fork(created.value.id, changedAt[0]!, 'rewind');
    if (!fork.ok) throw new Error(fork.error.message);
    const forkLog = await store.load(fork.value.id);
    if (!forkLog.ok) throw new Error();
    const snap = snapshotAt(forkLog.value)!;
    expect(snap.files).toEqual(seen[0]!.files);
    expect(snap.files).toEqual({ 'notes.txt': 'v1\n', 'seed.txt': 'seed' });

    // Restore into the live sandbox (which has moved on) and into a fresh one.
    await restoreSnapshot(s.deps.sandbox.fs, ROOT, snap);
    expect((await snapshotSandbox(s.deps.sandbox.fs, ROOT)).files).toEqual(snap.files);
    const fresh = await createJustBashSandbox();
    await restoreSnapshot(fresh.fs, ROOT, snap);
    expect(await fresh.fs.readFile(`${ROOT}/notes.txt`)).toBe('v1\n');

    // The conversation of that moment: the write call, its result not yet in the history.
    const replay = replaySession(forkLog.value);
    expect(replay.interrupted).toBe(true);
    expect(replay.resumeMessages[replay.resumeMessages.length - 1]!.role).toBe('user');

    // Snapshots are deltas: the log holds the seed file once, not once per snapshot.
    const seedCopies = full.value.filter((e) => e.type === 'session.snapshot' && 'seed.txt' in e.delta.files).length;
    expect(seedCopies).toBe(1);
    expect(snapshotAt(full.value)!.files).toEqual(seen[1]!.files);
  });
});
