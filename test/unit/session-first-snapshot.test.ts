/**
 * A new session's first waits go together (issue 23, first Step): the files' first snapshot is taken
 * while the run computes its first event and the session's record is written (`persistRun`'s
 * `firstSnapshot`, `startedEarly`). What must not change: the log still holds that snapshot just
 * before the first event, the snapshot still has the files as they were at `run.start`, a snapshot
 * that fails still says so and loses no event, and a run started early still ends as it would.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun, startedEarly } from '../../src/harness/session/persist-run.ts';
import { snapshotAt, snapshotSandbox, SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import type { RunResult } from '../../src/harness/loop/types.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { stubLocalStorage } from '../helpers/local-storage.ts';
import { memoryPageState } from '../helpers/page-state.ts';

const ROOT = '/home/project';
const event = (type: string, ts = 1) => ({ type, ts, agentId: 'main' }) as unknown as TraceEvent;
const RESULT = { reason: 'completed', turns: 0, usage: {}, messages: [], contextState: {} } as unknown as RunResult;

async function writerOf(clock: FakeClock) {
  const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
  const created = await store.create({ title: 't' });
  if (!created.ok) throw new Error('no session');
  return { store, id: created.value.id, writer: new SessionLogWriter(store, created.value.id) };
}

async function drain<T, R>(gen: AsyncGenerator<T, R>): Promise<{ items: T[]; result: R }> {
  const items: T[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { items, result: step.value };
    items.push(step.value);
  }
}

beforeAll(stubLocalStorage);

describe('persistRun with a first snapshot already under way', () => {
  test('it is logged just before the first event, and no second snapshot is taken for that event', async () => {
    const clock = new FakeClock(1000);
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'A' } });
    const tracker = new SnapshotTracker();
    const first = tracker.take(sb.fs, ROOT);
    const { store, id, writer } = await writerOf(clock);
    async function* run(): AsyncGenerator<TraceEvent, RunResult> {
      yield event('run.start');
      yield event('run.end');
      return RESULT;
    }
    const out = await drain(persistRun(run(), { writer, clock, snapshots: { fs: sb.fs, root: ROOT, tracker }, firstSnapshot: first }));
    expect(out.items.map((e) => e.type)).toEqual(['run.start', 'run.end']);
    const log = await store.load(id);
    if (!log.ok) throw new Error(log.error.message);
    expect(log.value.map((e) => e.type)).toEqual(['session.snapshot', 'run.start', 'run.end', 'session.run_result']);
    expect(snapshotAt(log.value)?.files).toEqual({ 'a.txt': 'A' });
  });

  test('a first snapshot that failed is reported, and the run and its log go on', async () => {
    const clock = new FakeClock(1000);
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'A' } });
    const { store, id, writer } = await writerOf(clock);
    const problems: string[] = [];
    async function* run(): AsyncGenerator<TraceEvent, RunResult> {
      yield event('run.start');
      return RESULT;
    }
    const failed = Promise.reject(new Error('a file vanished mid-walk'));
    const out = await drain(persistRun(run(), { writer, clock, snapshots: { fs: sb.fs, root: ROOT, tracker: new SnapshotTracker() }, firstSnapshot: failed, onSnapshotError: (m) => problems.push(m) }));
    expect(out.items.map((e) => e.type)).toEqual(['run.start']);
    expect(problems).toEqual([expect.stringContaining('a file vanished mid-walk')]);
    const log = await store.load(id);
    expect(log.ok && log.value.map((e) => e.type)).toEqual(['run.start', 'session.run_result']);
  });
});

describe('startedEarly', () => {
  test('asks for the first event at once, then pulls and returns as the run would', async () => {
    let started = false;
    async function* run(): AsyncGenerator<TraceEvent, RunResult> {
      started = true;
      yield event('run.start');
      yield event('turn.start');
      return RESULT;
    }
    const gen = startedEarly(run());
    // The run's body is under way before anyone pulls: that is the point.
    await Promise.resolve();
    expect(started).toBe(true);
    const out = await drain(gen);
    expect(out.items.map((e) => e.type)).toEqual(['run.start', 'turn.start']);
    expect(out.result).toBe(RESULT);
  });

  test('a first step that throws throws at the first pull, not before', async () => {
    // eslint-disable-next-line require-yield
    async function* run(): AsyncGenerator<TraceEvent, RunResult> {
      throw new Error('the loop could not start');
    }
    const gen = startedEarly(run());
    await new Promise((r) => setTimeout(r, 0));
    await expect(gen.next()).rejects.toThrow('the loop could not start');
  });

  test('a consumer that stops pulling stops the run (its clean-up runs)', async () => {
    let cleaned = false;
    async function* run(): AsyncGenerator<TraceEvent, RunResult> {
      try {
        yield event('run.start');
        yield event('turn.start');
        return RESULT;
      } finally {
        cleaned = true;
      }
    }
    const gen = startedEarly(run());
    expect((await gen.next()).value).toMatchObject({ type: 'run.start' });
    await gen.return(RESULT);
    expect(cleaned).toBe(true);
  });
});

describe("the page's first Step of a new session", () => {
  test('logs the files as they were at run.start just before it, as a full snapshot', async () => {
    const { page, store } = memoryPageState();
    await page.ctl.step();
    expect(page.ctl.events.map((e) => e.type)).toEqual(['run.start']);
    await page.sessions.flush();
    const log = await store.load(page.sessions.current!.id);
    if (!log.ok) throw new Error(log.error.message);
    const types = log.value.map((e) => e.type);
    expect(types.indexOf('session.snapshot')).toBe(types.indexOf('run.start') - 1);
    const snap = log.value.find((e) => e.type === 'session.snapshot');
    expect(snap && 'delta' in snap && snap.delta.full).toBe(true);
    const sandbox = page.ctl.sandbox!;
    expect(snapshotAt(log.value)).toEqual(await snapshotSandbox(sandbox.fs, sandbox.workdir));
  });
});
