/**
 * The workbench a session ran with (`session.workbench` log records): written and read back with
 * the scenario's own checks, the newest at a fork position wins, a damaged record is reported and
 * not used, an imported session's workbench is outside content, and the record leaves replay,
 * event positions and JSONL round trips as they were.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { exportSessionJsonl, importSessionJsonl } from '../../src/harness/session/jsonl.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { logSeqOfEvent } from '../../src/ui/sessions/log-position.ts';
import { asImportedLog, restoredWorkbenchText, workbenchKey, workbenchMarker } from '../../src/ui/sessions/workbench-record.ts';
import { latestWorkbench } from '../../src/ui/sessions/workbench-read.ts';
import { importSession } from '../../src/ui/state/session-transfer.ts';
import { scenarioWith, shoutTool } from './custom-tools-fixture.ts';

const meta = { ts: 0, agentId: 'main', turn: 0 };
const user: TraceEvent = { type: 'message.appended', origin: 'user', message: { role: 'user', content: 'go' }, index: 0, seq: 1, ...meta };
const golden = {
  id: 'g1',
  label: 'shout hi',
  tool: 'shout',
  input: { text: 'hi' },
  files: {},
  expected: { decision: 'allow' as const, stage: 'rules', isError: false, content: 'HI!', hooks: [] },
};

const base = scenarioWith([{ content: [{ type: 'text', text: 'ok' }] }]);
const edited = scenarioWith([{ content: [{ type: 'text', text: 'ok' }] }], { customTools: [shoutTool], golden: [golden], permissions: { allow: ['shout'] } });

describe('session.workbench records', () => {
  it('round-trips the edited scenario; the newest record at or before a fork position wins', () => {
    const log: SessionLogEvent[] = [workbenchMarker({ scenario: base, origin: 'builtin' }, 1), user, workbenchMarker({ scenario: edited, origin: 'builtin' }, 2)];
    const end = latestWorkbench(log);
    expect(end).toMatchObject({ kind: 'ok', seq: 3, workbench: { origin: 'builtin' } });
    if (end.kind !== 'ok') throw new Error();
    expect(end.workbench.scenario.settings.customTools?.map((t) => t.name)).toEqual(['shout']);
    expect(end.workbench.scenario.settings.golden?.map((g) => g.id)).toEqual(['g1']);
    expect(workbenchKey(end.workbench)).toBe(workbenchKey({ scenario: edited, origin: 'builtin' }));
    expect(latestWorkbench(log, 2)).toMatchObject({ kind: 'ok', seq: 1 });
    expect(latestWorkbench([user])).toEqual({ kind: 'none' });
    expect(restoredWorkbenchText(end)).toContain('1 custom tool, 1 golden case');
  });

  it('a damaged record is reported with its position and never half-used', () => {
    const badOrigin: SessionLogEvent = { type: 'session.workbench', ts: 0, workbench: { version: 1, origin: 'trusted-by-me', scenario: edited } };
    expect(latestWorkbench([user, badOrigin])).toMatchObject({ kind: 'damaged', seq: 2, problem: expect.stringContaining('origin') });
    const badTool = { ...edited, settings: { ...edited.settings, customTools: [{ ...shoutTool, name: 'bad name!' }] } };
    const badScenario: SessionLogEvent = { type: 'session.workbench', ts: 0, workbench: { version: 1, origin: 'builtin', scenario: badTool } };
    const damaged = latestWorkbench([badScenario]);
    expect(damaged).toMatchObject({ kind: 'damaged', seq: 1, problem: expect.stringContaining('customTools') });
    expect(restoredWorkbenchText(damaged)).toMatch(/damaged .* opened as the library has it/);
  });

  it('an imported session\'s workbench is outside content, whatever its record said', async () => {
    const log: SessionLogEvent[] = [workbenchMarker({ scenario: edited, origin: 'builtin' }, 1), user];
    const text = exportSessionJsonl(log, { sessionId: 's1' });
    const back = importSessionJsonl(text);
    expect(back.ok && back.events[0]).toMatchObject({ type: 'session.workbench', workbench: { origin: 'builtin' } });
    expect(asImportedLog(log, { scenario: edited, origin: 'builtin' })[0]).toMatchObject({ workbench: { origin: 'import' } });
    const store = new MemorySessionStore({ clock: new FakeClock(), ids: new SequentialIds() });
    const imported = await importSession(store, text, 'mine.jsonl', { scenario: edited, origin: 'builtin' });
    if (!imported.ok) throw new Error(imported.error);
    const stored = await store.load(imported.value.id);
    if (!stored.ok) throw new Error();
    const w = latestWorkbench(stored.value);
    expect(w).toMatchObject({ kind: 'ok', workbench: { origin: 'import' } });
    expect(restoredWorkbenchText(w)).toContain('until you trust it');
  });

  it('is a session record: replay, the panels\' events and fork positions pass over it', () => {
    const log: SessionLogEvent[] = [workbenchMarker({ scenario: edited, origin: 'builtin' }, 1), user];
    expect(replaySession(log).messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(logSeqOfEvent(log, 0)).toBe(2);
  });
});
