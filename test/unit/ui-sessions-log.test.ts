import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import type { RunResult } from '../../src/harness/loop/types.ts';
import { SessionLogWriter, SnapshotTracker, persistRun, replaySession, snapshotAt, traceEventsOf, type SessionLogEvent } from '../../src/harness/session/index.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { logSeqOfEvent, memoryTextOf, resultOfReplay } from '../../src/ui/sessions/log-position.ts';

/**
 * Runs a built-in scenario the way the page does (prepareRun → persistRun into a store), stopping
 * after the first event `stopAt` matches (a run cut off by a reload).
 */
async function recorded(id: string, stopAt?: (e: TraceEvent) => boolean) {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const clock = new FakeClock();
  const store = new MemorySessionStore({ clock, ids: new SequentialIds() });
  const created = await store.create({ title: id, scenarioId: id });
  if (!created.ok) throw new Error(created.error.message);
  const sandbox = await createJustBashSandbox({});
  const { input, deps } = await prepareRun({ scenario, sandbox, clock, ids: new SequentialIds(), trusted: true });
  const writer = new SessionLogWriter(store, created.value.id);
  const gen = persistRun(agentLoop(input, deps), {
    writer,
    clock,
    snapshots: { fs: sandbox.fs, root: sandbox.workdir, tracker: new SnapshotTracker() },
  });
  let result: RunResult | null = null;
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      result = step.value;
      break;
    }
    if (stopAt?.(step.value)) {
      await gen.return(undefined as never);
      break;
    }
  }
  await writer.flush();
  const log = await store.load(created.value.id);
  if (!log.ok) throw new Error(log.error.message);
  return { log: log.value, input, result };
}

describe('logSeqOfEvent', () => {
  it('maps the i-th event the panels show to its position in the whole log', async () => {
    const { log } = await recorded('fix-a-bug');
    const shown = traceEventsOf(log);
    expect(shown.length).toBeLessThan(log.length); // snapshots and the run result are in the log too
    for (const i of [0, 1, Math.floor(shown.length / 2), shown.length - 1]) {
      const seq = logSeqOfEvent(log, i);
      expect(seq).not.toBeNull();
      expect(log[seq! - 1]).toBe(shown[i]);
    }
    expect(logSeqOfEvent(log, shown.length)).toBeNull();
    expect(logSeqOfEvent(log, -1)).toBeNull();
    expect(logSeqOfEvent(log, 1.5)).toBeNull();
  });

  it('gives a position whose snapshot has the files of that moment (before the edit: still buggy)', async () => {
    const { log } = await recorded('fix-a-bug');
    const shown = traceEventsOf(log);
    const editProposed = shown.findIndex((e) => e.type === 'tool.proposed' && e.name === 'edit');
    expect(editProposed).toBeGreaterThan(0);
    const before = snapshotAt(log, logSeqOfEvent(log, editProposed)!);
    expect(before?.files['calc.sh']).toContain('total - n');
    expect(snapshotAt(log)?.files['calc.sh']).toContain('total + n');
  });
});

describe('memoryTextOf', () => {
  it('recovers the memory text the first run sent (CLAUDE.md and its import)', async () => {
    const { log, input } = await recorded('memory-claude-md');
    expect(input.memory).toBeTruthy();
    expect(memoryTextOf(log)).toBe(input.memory);
  });

  it('is empty when the run had no memory, and unknown before any request', async () => {
    const { log } = await recorded('fix-a-bug');
    expect(memoryTextOf(log)).toBe('');
    const firstRequest = log.findIndex((e) => e.type === 'model.request');
    expect(memoryTextOf(log.slice(0, firstRequest))).toBeUndefined();
    expect(memoryTextOf([] as SessionLogEvent[])).toBeUndefined();
  });
});

describe('resultOfReplay', () => {
  it('ends a finished session as it ended, with its history and context state', async () => {
    const { log, result } = await recorded('fix-a-bug');
    const r = resultOfReplay(replaySession(log), emptyContextState);
    expect(r.reason).toBe('completed');
    expect(r.messages).toEqual(result!.messages);
    expect(r.turns).toBe(result!.turns);
    expect(r.contextState).toEqual(result!.contextState);
  });

  it('ends a cut-off session as aborted, with a history that can be sent again', async () => {
    const { log } = await recorded('fix-a-bug', (e) => e.type === 'tool.proposed');
    const replay = replaySession(log);
    expect(replay.interrupted).toBe(true);
    expect(replay.repairs.length).toBeGreaterThan(0);
    const r = resultOfReplay(replay, emptyContextState);
    expect(r.reason).toBe('aborted');
    expect(checkTranscript(r.messages)).toEqual([]);
    expect(r.contextState).toEqual(emptyContextState());
  });
});
