/**
 * Subagents in the session log: their events are stored with their agent id and the parent's call
 * id; a JSONL export writes their messages as sidechains (Claude Code's `isSidechain`), an import
 * brings every event back, and resuming replays only the main agent's history.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, checkTranscript } from '../../src/harness/index.ts';
import { exportSessionJsonl, importSessionJsonl } from '../../src/harness/session/jsonl.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { run } from './agents-fixture.ts';

describe('subagents in the session log', () => {
  it('export writes sidechains; import brings every event back; resume replays the main history', async () => {
    const sandbox = await createJustBashSandbox({ files: {} });
    const scenario = findBuiltinScenario('delegate-parallel-subagents')!;
    const { events, result } = await run(await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true }));
    const text = exportSessionJsonl(events, { sessionId: 'sess-1' });
    const records = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const messages = records.filter((r) => r.type === 'user' || r.type === 'assistant');
    const side = messages.filter((r) => r.isSidechain === true);
    const kids = [...new Set(events.filter((e) => e.agentId !== 'main').map((e) => e.agentId))];
    expect(new Set(side.map((r) => r.agentId))).toEqual(new Set(kids));
    expect(side.every((r) => typeof r.parentToolUseId === 'string')).toBe(true);
    // Each sidechain starts its own chain at the subagent's prompt.
    for (const id of kids) {
      const chain = side.filter((r) => r.agentId === id);
      expect(chain[0]!.parentUuid).toBeNull();
      expect(chain[1]!.parentUuid).toBe(chain[0]!.uuid);
    }
    const main = messages.filter((r) => r.isSidechain === false);
    expect(main.length).toBe(events.filter((e) => e.type === 'message.appended' && e.agentId === 'main').length);

    const back = importSessionJsonl(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.events).toEqual(events);
    const replayed = replaySession(back.events);
    expect(replayed.messages).toEqual(result.messages);
    expect(checkTranscript(replayed.messages)).toEqual([]);
    for (const id of kids) expect(checkTranscript(replaySession(back.events, { agentId: id }).messages)).toEqual([]);
  });
});
