/**
 * The diff of an agent edit comes from the snapshots the session log really has: a run recorded
 * with persistRun into the in-memory session store, then each write / edit call's before and after
 * folded from that log, as the conversation's "View diff" does.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { WORKDIR, type TraceEvent } from '../../src/harness/index.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun } from '../../src/harness/session/persist-run.ts';
import { snapshotAt, SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import { traceEventsOf } from '../../src/harness/session/types.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { logSeqOfEvent } from '../../src/ui/sessions/log-position.ts';
import { diffRows, diffSpan } from '../../src/ui/diff/edit-diff.ts';
import { loadEditDiff } from '../../src/ui/diff/load-edit-diff.ts';
import { callStates } from '../../src/ui/diff/replay-turn.ts';
import type { FilesAt } from '../../src/ui/state/run-controller.svelte.ts';
import { setup } from './loop-helpers.ts';

type Turns = Parameters<typeof setup>[0];

const ONE_EDIT_A_TURN: Turns = [
  { content: [{ type: 'tool_use', id: 'w1', name: 'write', input: { file_path: 'notes.txt', content: 'one\ntwo\nthree\n' } }] },
  { content: [{ type: 'tool_use', id: 'e1', name: 'edit', input: { file_path: 'notes.txt', old_string: 'two', new_string: 'TWO' } }] },
  { content: [{ type: 'tool_use', id: 'e2', name: 'edit', input: { file_path: 'missing.txt', old_string: 'x', new_string: 'y' } }] },
  { content: [{ type: 'text', text: 'Done.' }] },
];

async function recorded(turns: Turns = ONE_EDIT_A_TURN) {
  const s = await setup(turns, { files: { 'seed.txt': 'seed\n' } });
  const clock = s.clock as FakeClock;
  const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
  const created = await store.create({ title: 'diffs' });
  if (!created.ok) throw new Error();
  const writer = new SessionLogWriter(store, created.value.id);
  const gen = persistRun(agentLoop(s.input, s.deps), { writer, clock, snapshots: { fs: s.deps.sandbox.fs, root: WORKDIR, tracker: new SnapshotTracker() } });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  const log = await store.load(created.value.id);
  if (!log.ok) throw new Error();
  const events: TraceEvent[] = traceEventsOf(log.value);
  // The session manager's filesAt, over the stored log.
  const filesAt = async (count: number): Promise<FilesAt> => {
    const seq = logSeqOfEvent(log.value, count - 1);
    const snapshot = seq === null ? null : snapshotAt(log.value, seq);
    return snapshot ? { snapshot } : { unavailable: 'no snapshot' };
  };
  return { events, filesAt };
}

describe('edit diffs from the session snapshots', () => {
  it('a write that creates a file: every line added, marked new', async () => {
    const { events, filesAt } = await recorded();
    const d = await loadEditDiff({ events, workdir: WORKDIR, filesAt }, 'w1');
    expect(d).toMatchObject({ ok: true, path: 'notes.txt', created: true, deleted: false, from: 'snapshots' });
    if (!d.ok) throw new Error();
    expect(d.rows.map((r) => `${r.kind}:${r.text}`)).toEqual(['add:one', 'add:two', 'add:three']);
  });

  it('an edit: the changed line removed and added, with its old and new line numbers', async () => {
    const { events, filesAt } = await recorded();
    const d = await loadEditDiff({ events, workdir: WORKDIR, filesAt }, 'e1');
    if (!d.ok) throw new Error(d.why);
    expect(d.created).toBe(false);
    expect(d.rows).toEqual([
      { kind: 'same', text: 'one', oldLine: 1, newLine: 1 },
      { kind: 'del', text: 'two', oldLine: 2 },
      { kind: 'add', text: 'TWO', newLine: 2 },
      { kind: 'same', text: 'three', oldLine: 3, newLine: 3 },
    ]);
  });

  it('a failed edit has no diff, and says why', async () => {
    const { events, filesAt } = await recorded();
    expect(diffSpan(events, 'e2', WORKDIR)).toBeNull();
    expect(await loadEditDiff({ events, workdir: WORKDIR, filesAt }, 'e2')).toEqual({ ok: false, why: expect.stringMatching(/changed no file/) });
  });

  it('without a recorded session an edit still shows its own strings; a write says why not', async () => {
    const { events } = await recorded();
    const e = await loadEditDiff({ events, workdir: WORKDIR, filesAt: null }, 'e1');
    expect(e).toMatchObject({ ok: true, from: 'input' });
    const w = await loadEditDiff({ events, workdir: WORKDIR, filesAt: null }, 'w1');
    expect(w).toEqual({ ok: false, why: expect.stringMatching(/not recorded/) });
  });

  it('stepped back before the turn’s sandbox.changed: after is not known yet', async () => {
    const { events } = await recorded();
    const resultAt = events.findIndex((e) => e.type === 'tool.result' && e.toolUseId === 'w1');
    const span = diffSpan(events.slice(0, resultAt + 1), 'w1', WORKDIR);
    expect(span).toMatchObject({ path: 'notes.txt', afterCount: null });
  });

  it('long unchanged runs fold into one row', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n');
    const after = before.replace('l10', 'ten');
    const rows = diffRows(before, after);
    expect(rows[0]).toEqual({ kind: 'skip', text: '6 unchanged lines' });
    expect(rows.filter((r) => r.kind !== 'skip').map((r) => r.text)).toEqual(['l7', 'l8', 'l9', 'l10', 'ten', 'l11', 'l12', 'l13']);
    expect(rows.at(-1)).toEqual({ kind: 'skip', text: '7 unchanged lines' });
  });

  it('two edits of one file in one turn: each call’s diff is its own change, not the turn’s', async () => {
    const { events, filesAt } = await recorded([
      { content: [{ type: 'tool_use', id: 'w1', name: 'write', input: { file_path: 'notes.txt', content: 'one\ntwo\nthree\n' } }] },
      {
        content: [
          { type: 'tool_use', id: 'a', name: 'edit', input: { file_path: 'notes.txt', old_string: 'two', new_string: 'TWO' } },
          { type: 'tool_use', id: 'b', name: 'edit', input: { file_path: `${WORKDIR}/notes.txt`, old_string: 'three', new_string: 'THREE' } },
          { type: 'tool_use', id: 'sh', name: 'bash', input: { command: 'echo four >> notes.txt' } },
          { type: 'tool_use', id: 'c', name: 'edit', input: { file_path: 'notes.txt', old_string: 'absent', new_string: 'x' } },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const changes = async (id: string) => {
      const d = await loadEditDiff({ events, workdir: WORKDIR, filesAt }, id);
      if (!d.ok) throw new Error(d.why);
      // Edits run one at a time, each followed by its own snapshot: nothing is shared.
      expect(d).toMatchObject({ from: 'snapshots', sharedWith: [] });
      return d.rows.filter((r) => r.kind === 'add' || r.kind === 'del').map((r) => `${r.kind}:${r.text}`);
    };
    expect(await changes('a')).toEqual(['del:two', 'add:TWO']);
    // Not the command's appended line, which came after it in the same turn.
    expect(await changes('b')).toEqual(['del:three', 'add:THREE']);
    // The failed one changed nothing and has no diff.
    expect(diffSpan(events, 'c', WORKDIR)).toBeNull();
  });

  it('calls that share a snapshot window (parallel agents on one file) are replayed: each its own change, checked against the after state', async () => {
    const { events } = await recorded([
      { content: [{ type: 'tool_use', id: 'w1', name: 'write', input: { file_path: 'notes.txt', content: 'one\ntwo\nthree\n' } }] },
      {
        content: [
          { type: 'tool_use', id: 'a', name: 'edit', input: { file_path: 'notes.txt', old_string: 'two', new_string: 'TWO' } },
          { type: 'tool_use', id: 'b', name: 'edit', input: { file_path: `${WORKDIR}/notes.txt`, old_string: 'three', new_string: 'THREE' } },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const before = 'one\ntwo\nthree\n';
    const after = 'one\nTWO\nTHREE\n';
    expect(callStates(events, 'a', ['b'], 'notes.txt', WORKDIR, before, after)).toEqual({ before, after: 'one\nTWO\nthree\n' });
    expect(callStates(events, 'b', ['a'], 'notes.txt', WORKDIR, before, after)).toEqual({ before: 'one\nTWO\nthree\n', after });
    // Something else changed the file in the window too: the replay does not end at the after state, so it says nothing.
    expect(callStates(events, 'b', ['a'], 'notes.txt', WORKDIR, before, `${after}four\n`)).toBeNull();
    // A write's content is its after state; a call of another file does not belong in the group.
    expect(callStates(events, 'w1', [], 'notes.txt', WORKDIR, undefined, before)).toEqual({ before: undefined, after: before });
    expect(callStates(events, 'a', ['w1'], 'other.txt', WORKDIR, before, after)).toBeNull();
  });
});
