/**
 * A typed follow-up in scripted mode continues the script or says it has ended — it never
 * replays turn 1. Driven with the real scripted client and a real lesson run.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { SCRIPT_ENDED, scriptedFollowUp } from '../../src/ui/state/scripted-follow-up.ts';

describe('scripted follow-ups', () => {
  it('continue the last client while it has turns, and end plainly when it has none', async () => {
    const turns = [{ content: [{ type: 'text' as const, text: 'one' }] }];
    const client = createScriptedClient(turns);
    expect(scriptedFollowUp(client, turns, [])).toEqual({ kind: 'continue', model: client });
    // Use its only turn.
    for await (const _ of client.stream({ model: 'm', max_tokens: 10, system: '', messages: [{ role: 'user', content: 'hi' }], tools: [] }, new AbortController().signal)) void _;
    expect(client.remaining()).toBe(0);
    expect(scriptedFollowUp(client, turns, [])).toEqual({ kind: 'ended', message: SCRIPT_ENDED });
  });

  it('after a reload (no client) resume at the first turn not yet played, from the log', async () => {
    const doc = builtinDocs.find((d) => d.id === 'lesson-follow-ups')!;
    const first = { ...doc, prompts: doc.prompts.slice(0, 1) };
    const sandbox = await createJustBashSandbox();
    const { log } = await runLessonHeadless(first, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    await sandbox.dispose();
    const scenario = findBuiltinScenario('lesson-follow-ups')!;
    if (scenario.model.kind !== 'scripted') throw new Error('scripted');
    const r = scriptedFollowUp(null, scenario.model.turns, log);
    // Two model calls were made, so the third turn (the read) comes next, not turn 1's write.
    expect(r.kind).toBe('resume');
    expect(r.kind === 'resume' && r.turns[0]).toEqual(scenario.model.turns[2]);
    expect(scriptedFollowUp(null, scenario.model.turns.slice(0, 2), log).kind).toBe('ended');
  });
});

describe('a follow-up after a cut-off turn', () => {
  it('plays the cut turn again (a fork before a tool ran redoes that call)', async () => {
    const sandbox = await createJustBashSandbox();
    const { log } = await runLessonHeadless(builtinDocs.find((d) => d.id === 'fix-a-bug')!, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    await sandbox.dispose();
    // Cut the log right after the edit was proposed (as a fork there does): its result never came.
    const cut = log.slice(0, log.findIndex((e) => e.type === 'tool.proposed' && e.name === 'edit') + 1);
    const scenario = findBuiltinScenario('fix-a-bug')!;
    if (scenario.model.kind !== 'scripted') throw new Error('scripted');
    const r = scriptedFollowUp(null, scenario.model.turns, cut);
    expect(r.kind === 'resume' && r.turns[0]!.content.some((b) => b.type === 'tool_use' && b.name === 'edit')).toBe(true);
    // Its calls get ids after the ones the session already used: no card is rewritten by a new call.
    const used = new Set(cut.flatMap((e) => (e.type === 'tool.proposed' ? [e.toolUseId] : [])));
    expect(r.kind === 'resume' && r.toolIdStart).toBe(used.size);
    if (r.kind !== 'resume') return;
    const sandbox2 = await createJustBashSandbox();
    const resumed = await runLessonHeadless(
      { ...builtinDocs.find((d) => d.id === 'fix-a-bug')!, model: { kind: 'scripted', turns: r.turns } },
      { sandbox: sandbox2, clock: new FakeClock(), ids: new SequentialIds(), scriptedToolIdStart: r.toolIdStart },
    );
    await sandbox2.dispose();
    for (const e of resumed.log) if (e.type === 'tool.proposed') expect(used.has(e.toolUseId), e.toolUseId).toBe(false);
  });
});

describe('what a restored log says the agent read', () => {
  it('lists the files of successful reads, writes and edits, absolute, once each', async () => {
    const { pathsSeenInLog } = await import('../../src/ui/state/restore-reads.ts');
    const sandbox = await createJustBashSandbox();
    const { log } = await runLessonHeadless(builtinDocs.find((d) => d.id === 'fix-a-bug')!, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    await sandbox.dispose();
    expect(pathsSeenInLog(log, '/home/project')).toEqual(['/home/project/calc.sh']);
    // Cut before the read's result: nothing was seen yet.
    const readStart = log.findIndex((e) => e.type === 'tool.started' && e.name === 'read');
    expect(pathsSeenInLog(log.slice(0, readStart + 1), '/home/project')).toEqual([]);
  });
});
