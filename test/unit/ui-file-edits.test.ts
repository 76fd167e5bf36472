import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import type { Sandbox } from '../../src/harness/index.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistEvent, persistRun } from '../../src/harness/session/persist-run.ts';
import { snapshotAt, SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import { traceEventsOf } from '../../src/harness/session/types.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { FileEdits, resolveInside } from '../../src/ui/files/file-edits.ts';
import { logSeqOfEvent } from '../../src/ui/sessions/log-position.ts';
import { setup } from './loop-helpers.ts';

const ROOT = '/home/project';
const enc = (s: string) => new TextEncoder().encode(s);

async function edits(files: Record<string, string> = {}, blocked: string | null = null) {
  const sandbox = await createJustBashSandbox({ files });
  const recorded: string[][] = [];
  const fe = new FileEdits({ sandbox: () => sandbox, blocked: () => blocked, record: async (p) => void recorded.push(p) });
  return { sandbox, recorded, fe };
}

describe('FileEdits: drafts and save', () => {
  it('is dirty while the text differs from disk, clean again after an undo back, and saves what was typed', async () => {
    const { sandbox, recorded, fe } = await edits({ 'a.txt': 'one\n' });
    const path = `${ROOT}/a.txt`;
    fe.loaded(path, 'one\n');
    expect(fe.isDirty(path)).toBe(false);
    fe.change(path, 'two\n');
    expect(fe.isDirty(path)).toBe(true);
    fe.change(path, 'one\n');
    expect(fe.isDirty(path)).toBe(false);
    // Nothing to save: no write, nothing recorded.
    expect(await fe.save(path)).toEqual({ ok: true, paths: [] });
    expect(recorded).toEqual([]);

    fe.change(path, 'two\n');
    expect(await fe.save(path)).toEqual({ ok: true, paths: [path] });
    expect(await sandbox.fs.readFile(path)).toBe('two\n');
    expect(fe.isDirty(path)).toBe(false);
    expect(recorded).toEqual([[path]]);
    // The watch re-reads the file: the saved text is the new base.
    fe.loaded(path, 'two\n');
    fe.change(path, 'two\n');
    expect(fe.isDirty(path)).toBe(false);
  });

  it('refuses to change anything while editing is blocked, keeping the draft', async () => {
    const { sandbox, recorded, fe } = await edits({ 'a.txt': 'one' }, 'stepped back');
    const path = `${ROOT}/a.txt`;
    fe.loaded(path, 'one');
    fe.change(path, 'two');
    const r = await fe.save(path);
    expect(r).toEqual({ ok: false, error: 'Cannot change the files: stepped back.' });
    expect(await sandbox.fs.readFile(path)).toBe('one');
    expect(fe.isDirty(path)).toBe(true);
    expect((await fe.createFile(ROOT, 'b.txt')).ok).toBe(false);
    expect(recorded).toEqual([]);
  });
});

describe('FileEdits: new, rename, delete', () => {
  it('creates files and folders (nested names too) and refuses names that exist or leave the project', async () => {
    const { sandbox, recorded, fe } = await edits({ 'a.txt': 'A' });
    expect(await fe.createFile(ROOT, 'src/new.ts')).toEqual({ ok: true, paths: [`${ROOT}/src/new.ts`] });
    expect(await sandbox.fs.readFile(`${ROOT}/src/new.ts`)).toBe('');
    expect(await fe.createFolder(`${ROOT}/src`, 'lib/deep')).toEqual({ ok: true, paths: [`${ROOT}/src/lib/deep`] });
    expect((await sandbox.fs.stat(`${ROOT}/src/lib/deep`))?.kind).toBe('dir');

    const exists = await fe.createFile(ROOT, 'a.txt');
    expect(exists).toEqual({ ok: false, error: `${ROOT}/a.txt already exists; choose another name. Nothing was changed.` });
    expect(await sandbox.fs.readFile(`${ROOT}/a.txt`)).toBe('A');
    const escape = await fe.createFile(ROOT, '../etc/x');
    expect(escape.ok).toBe(false);
    if (!escape.ok) expect(escape.error).toContain('may not contain "." or ".."');
    expect((await fe.createFolder(ROOT, '  ')).ok).toBe(false);
    expect(recorded).toEqual([[`${ROOT}/src/new.ts`], [`${ROOT}/src/lib/deep`]]);
  });

  it('renames a file and a folder, moving their unsaved drafts along', async () => {
    const { sandbox, recorded, fe } = await edits({ 'src/a.ts': 'a', 'src/b.ts': 'b', 'c.txt': 'c' });
    fe.loaded(`${ROOT}/src/a.ts`, 'a');
    fe.change(`${ROOT}/src/a.ts`, 'a draft');
    expect(await fe.rename(`${ROOT}/src`, 'lib')).toEqual({ ok: true, paths: [`${ROOT}/src`, `${ROOT}/lib`] });
    expect(await sandbox.fs.readFile(`${ROOT}/lib/b.ts`)).toBe('b');
    expect(await sandbox.fs.stat(`${ROOT}/src`)).toBeNull();
    expect(fe.isDirty(`${ROOT}/src/a.ts`)).toBe(false);
    expect(fe.drafts.get(`${ROOT}/lib/a.ts`)).toBe('a draft');

    expect((await fe.rename(`${ROOT}/c.txt`, 'lib')).ok).toBe(false); // a folder of that name exists
    expect(await fe.rename(`${ROOT}/c.txt`, 'd.txt')).toEqual({ ok: true, paths: [`${ROOT}/c.txt`, `${ROOT}/d.txt`] });
    expect(await sandbox.fs.readFile(`${ROOT}/d.txt`)).toBe('c');
    // Saving the moved draft writes the new path.
    expect(await fe.save(`${ROOT}/lib/a.ts`)).toEqual({ ok: true, paths: [`${ROOT}/lib/a.ts`] });
    expect(await sandbox.fs.readFile(`${ROOT}/lib/a.ts`)).toBe('a draft');
    expect(recorded).toHaveLength(3);
  });

  it('deletes a file and a folder with its drafts, never the working directory', async () => {
    const { sandbox, fe } = await edits({ 'src/a.ts': 'a', 'x.txt': 'x' });
    fe.change(`${ROOT}/src/a.ts`, 'draft');
    expect(await fe.remove(`${ROOT}/src`)).toEqual({ ok: true, paths: [`${ROOT}/src`] });
    expect(await sandbox.fs.stat(`${ROOT}/src`)).toBeNull();
    expect(fe.drafts.size).toBe(0);
    expect((await fe.remove(`${ROOT}/x.txt`)).ok).toBe(true);
    expect(await sandbox.fs.stat(`${ROOT}/x.txt`)).toBeNull();
    const root = await fe.remove(ROOT);
    expect(root.ok).toBe(false);
    expect((await fe.remove(`${ROOT}/gone.txt`)).ok).toBe(false);
  });
});

describe('FileEdits: upload', () => {
  it('writes text files (folders kept), replaces same-named ones, and names the files it skipped', async () => {
    const { sandbox, recorded, fe } = await edits({ 'old.txt': 'old' });
    const ok = await fe.upload(ROOT, [
      { path: 'old.txt', bytes: enc('new') },
      { path: 'dir/inner.md', bytes: enc('# hi é') },
    ]);
    expect(ok).toEqual({ ok: true, paths: [`${ROOT}/old.txt`, `${ROOT}/dir/inner.md`] });
    expect(await sandbox.fs.readFile(`${ROOT}/old.txt`)).toBe('new');
    expect(await sandbox.fs.readFile(`${ROOT}/dir/inner.md`)).toBe('# hi é');

    const mixed = await fe.upload(`${ROOT}/dir`, [
      { path: 'pic.png', bytes: new Uint8Array([0x89, 0x50, 0xff, 0xfe, 0x00]) },
      { path: 'ok.txt', bytes: enc('fine') },
    ]);
    expect(mixed).toEqual({ ok: false, error: 'Uploaded 1; skipped pic.png: not UTF-8 text (the sandbox holds text files only).' });
    expect(await sandbox.fs.readFile(`${ROOT}/dir/ok.txt`)).toBe('fine');
    expect(await sandbox.fs.stat(`${ROOT}/dir/pic.png`)).toBeNull();
    expect(recorded.at(-1)).toEqual([`${ROOT}/dir/ok.txt`]);
  });

  it('resolveInside keeps every name inside the project', () => {
    expect(resolveInside(ROOT, ROOT, 'a/b.txt')).toBe(`${ROOT}/a/b.txt`);
    expect(resolveInside(ROOT, `${ROOT}/src`, 'x//y')).toBe(`${ROOT}/src/x/y`);
    expect(() => resolveInside(ROOT, ROOT, '/etc/passwd')).toThrow('absolute');
    expect(() => resolveInside(ROOT, '/tmp', 'a')).toThrow('outside');
  });
});

describe('a user edit while the run is paused', () => {
  it('the agent reads the edited file on its next call, and the log has the user event with the files after it', async () => {
    const s = await setup(
      [
        { content: [{ type: 'tool_use', id: 'w1', name: 'write', input: { file_path: 'notes.txt', content: 'agent text\n' } }] },
        { content: [{ type: 'tool_use', id: 'r1', name: 'read', input: { file_path: 'notes.txt' } }] },
        { content: [{ type: 'text', text: 'Read it.' }] },
      ],
      {},
    );
    const clock = s.clock as FakeClock;
    const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
    const created = await store.create({ title: 'edit' });
    if (!created.ok) throw new Error(created.error.message);
    const writer = new SessionLogWriter(store, created.value.id);
    const tracker = new SnapshotTracker();
    const sandbox: Sandbox = s.deps.sandbox;
    const persist = { writer, clock, snapshots: { fs: sandbox.fs, root: ROOT, tracker } };
    const shown: TraceEvent[] = [];
    const fe = new FileEdits({
      sandbox: () => sandbox,
      blocked: () => null,
      record: async (paths) => {
        const last = shown.at(-1)!;
        const e: TraceEvent = { type: 'sandbox.changed', paths, origin: 'user', seq: last.seq, ts: clock.now(), agentId: 'main', turn: last.turn };
        shown.push(e);
        await persistEvent(e, persist);
      },
    });

    const gen = persistRun(agentLoop(s.input, s.deps), persist);
    let edited = false;
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      shown.push(step.value);
      // Paused after the agent's write: the person edits and saves the file.
      if (!edited && step.value.type === 'sandbox.changed') {
        edited = true;
        const path = `${ROOT}/notes.txt`;
        fe.loaded(path, await sandbox.fs.readFile(path));
        fe.change(path, 'user text\n');
        expect((await fe.save(path)).ok).toBe(true);
      }
    }
    expect(edited).toBe(true);
    const read = shown.find((e): e is Extract<TraceEvent, { type: 'tool.result' }> => e.type === 'tool.result' && e.name === 'read');
    expect(JSON.stringify(read?.content)).toContain('user text');
    expect(JSON.stringify(read?.content)).not.toContain('agent text');

    const log = await store.load(created.value.id);
    if (!log.ok) throw new Error(log.error.message);
    // The log's trace events are exactly what the panels showed, in order (step-back indexes them).
    expect(traceEventsOf(log.value)).toEqual(shown);
    const userAt = shown.findIndex((e) => e.type === 'sandbox.changed' && e.origin === 'user');
    expect(userAt).toBeGreaterThan(0);
    const agentAt = shown.findIndex((e) => e.type === 'sandbox.changed' && e.origin !== 'user');
    expect(snapshotAt(log.value, logSeqOfEvent(log.value, agentAt)!)?.files['notes.txt']).toBe('agent text\n');
    expect(snapshotAt(log.value, logSeqOfEvent(log.value, userAt)!)?.files['notes.txt']).toBe('user text\n');
  });
});
