/**
 * Replay divergence: recorded tool results in the script, what is compared (normalised), the
 * recorder filling them, and the `replay.diverged` event — never on a faithful replay of a
 * built-in lesson, always when a hook blocks the recorded call or a rule denies it.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import type { ModelRequest } from '../../src/harness/messages.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createRecordingClient } from '../../src/model/recorder/recording-client.ts';
import { scriptedTurnSchema, type ScriptedTurn } from '../../src/model/scripted/script.ts';
import { digest, normaliseResult, RECORDED_HEAD_CHARS, sameResult, toRecordedResult } from '../../src/model/scripted/recorded-results.ts';
import { decodeScenarioLinkV1, encodeScenarioLinkV1 } from '../../src/scenarios/codec.ts';
import { courseLessons, nowTryVariant } from '../../src/scenarios/course.ts';
import { toScenario } from '../../src/scenarios/from-recording.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { toRunnableScenario } from '../../src/scenarios/migrate.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { withRecordedResults } from '../../src/scenarios/results-from-log.ts';
import type { ScenarioV1 } from '../../src/scenarios/schema-v1.ts';
import { nodeSkillLoader } from '../../src/skills-bundle/node.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import { textLine } from '../../src/cli/output.ts';
import { placeNotes } from '../../src/ui/author/lesson-logic.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const skillFiles = await nodeSkillLoader()();

async function runDoc(doc: ScenarioV1): Promise<TraceEvent[]> {
  const sandbox = await createJustBashSandbox();
  try {
    return (await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds(), skillFiles, toolRunner: createNodeToolRunner() })).log;
  } finally {
    await sandbox.dispose();
  }
}

const diverged = (log: TraceEvent[]) => ofType(log, 'replay.diverged');
const hasResults = (doc: ScenarioV1) =>
  doc.model.kind !== 'anthropic' && doc.model.turns.some((t) => t.content.some((b) => (b.type === 'tool_use' || b.type === 'tool_use_raw') && b.result));
const fixABug = builtinDocs.find((d) => d.id === 'fix-a-bug')!;

describe('recorded results in the script schema', () => {
  it('loads turns without results (old scenarios and links) and with them, strictly', () => {
    const old = { content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] };
    expect(scriptedTurnSchema.safeParse(old).success).toBe(true);
    const withResult = { content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' }, result: { content: 'a.txt', is_error: false } }] };
    expect(scriptedTurnSchema.safeParse(withResult).success).toBe(true);
    const typo = { content: [{ type: 'tool_use', name: 'bash', input: {}, result: { content: 'x', isError: true } }] };
    expect(scriptedTurnSchema.safeParse(typo).success).toBe(false);
    const badDigest = { content: [{ type: 'tool_use', name: 'bash', input: {}, result: { content: 'x', full: { chars: 9, digest: 'zz' } } }] };
    expect(scriptedTurnSchema.safeParse(badDigest).success).toBe(false);
  });

  it('a lesson with results survives a share link, and the lesson before results still decodes', () => {
    expect(hasResults(fixABug)).toBe(true);
    const back = decodeScenarioLinkV1(encodeScenarioLinkV1(fixABug));
    expect(back.ok && back.scenario.model).toEqual(fixABug.model);
    const stripped = JSON.parse(JSON.stringify(fixABug, (k, v: unknown) => (k === 'result' ? undefined : v))) as ScenarioV1;
    const old = decodeScenarioLinkV1(encodeScenarioLinkV1(stripped));
    expect(old.ok).toBe(true);
  });
});

describe('what is compared', () => {
  it('ignores tool ids, durations, clock times and whitespace', () => {
    const a = 'ran toolu_01AbC in 12 ms at 2026-12-02T05:48:15Z\r\nok   done  \n  duration_ms: 27.254\n[main 1a2b3c4] fix\n\n\n\nend\n';
    const b = 'ran toolu_scripted_3 in 0.4s at 2025-01-01T00:00:00.123Z\nok done\n  duration_ms: 0.188\n[main 9f8e7d6] fix\n\nend';
    expect(normaliseResult(a)).toBe(normaliseResult(b));
    expect(sameResult(toRecordedResult(a, false), { content: b, isError: false })).toBe(true);
  });

  it('ignores a commit hash that happens to be all digits where git prints one, but not a changed number', () => {
    const pairs: Array<[string, string]> = [
      ['[main f2427d5] Fix totalValue\n 1 file changed', '[main 1778499] Fix totalValue\n 1 file changed'],
      ['[main (root-commit) 0a1b2c3] init', '[main (root-commit) 0123456] init'],
      ['commit 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432\nAuthor: A', 'commit 1234567890123456789012345678901234567890\nAuthor: A'],
      ['1a2b3c4 fix\n5e6f7a8 init', '1234567 fix\n7654321 init'],
      ['Updating 1a2b3c4..5e6f7a8\nFast-forward', 'Updating 1234567..7654321\nFast-forward'],
      ['HEAD is now at 1a2b3c4 fix', 'HEAD is now at 1234567 fix'],
    ];
    for (const [recorded, now] of pairs) expect(normaliseResult(now), now).toBe(normaliseResult(recorded));
    expect(normaliseResult('wrote 1234567 bytes')).not.toBe(normaliseResult('wrote 7654321 bytes'));
  });

  it('ignores the date `date` and `git log` print, so a replay on another day is faithful', () => {
    const recorded = 'Thu Dec  3 22:10:07 UTC 2026\ncommit 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432\nAuthor: Sandbox User <user@sandbox.local>\nDate:   Thu Dec 3 22:10:07 2026 +0000\n\n    x';
    const now = 'Sat Dec  5 05:24:58 UTC 2026\ncommit 1234567890123456789012345678901234567890\nAuthor: Sandbox User <user@sandbox.local>\nDate:   Sat Dec 5 05:25:02 2026 +0000\n\n    x';
    expect(normaliseResult(now)).toBe(normaliseResult(recorded));
    // Someone else's commit is still a different result.
    expect(normaliseResult(now.replace('Sandbox User', 'Another'))).not.toBe(normaliseResult(recorded));
  });

  it('still tells different text, a different error flag and a long result that changed', () => {
    const rec = toRecordedResult('PASS: total is 60', false);
    expect(sameResult(rec, { content: 'FAIL: expected 60, got -60', isError: false })).toBe(false);
    expect(sameResult(rec, { content: 'PASS: total is 60', isError: true })).toBe(false);
    const long = 'line\n'.repeat(400);
    const kept = toRecordedResult(long, false);
    expect(kept.content).toHaveLength(RECORDED_HEAD_CHARS);
    expect(kept.full).toEqual({ chars: normaliseResult(long).length, digest: digest(normaliseResult(long)) });
    expect(sameResult(kept, { content: long, isError: false })).toBe(true);
    expect(sameResult(kept, { content: `${long}one more`, isError: false })).toBe(false);
  });
});

describe('the scripted client judges each recorded call once', () => {
  it('reports a differing result, then nothing for the same request again (a retry)', async () => {
    const turns: ScriptedTurn[] = [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi' }, result: { content: 'hi' } }] }, { content: [{ type: 'text', text: 'done' }] }];
    const client = createScriptedClient(turns);
    const first: ModelRequest = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go' }] };
    for await (const e of client.stream(first, new AbortController().signal)) void e;
    const next: ModelRequest = {
      ...first,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_scripted_1', name: 'bash', input: { command: 'echo hi' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_scripted_1', content: 'Blocked by hook', is_error: true }] },
      ],
    };
    expect(client.replayCheck!(next)).toEqual([
      {
        toolUseId: 'toolu_scripted_1',
        name: 'bash',
        recordedTurn: 1,
        what: 'is_error',
        expected: { content: 'hi', isError: false },
        actual: { content: 'Blocked by hook', isError: true },
      },
    ]);
    expect(client.replayCheck!(next)).toEqual([]);
  });
});

describe('the recorder keeps results, and a replay of the recording compares them', () => {
  const turns: ScriptedTurn[] = [
    { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hello > out.txt && cat out.txt' } }] },
    { content: [{ type: 'tool_use', name: 'read', input: { file_path: 'out.txt' } }] },
    { content: [{ type: 'text', text: 'out.txt says hello.' }] },
  ];

  async function record() {
    const live = await setup(turns);
    const recorder = createRecordingClient(live.client, { clock: live.clock });
    const run = await drain(live.input, { ...live.deps, model: recorder });
    expect(run.result.reason).toBe('completed');
    return recorder.recording();
  }

  it('fills each call’s result from the next request, and save-as-scenario keeps them', async () => {
    const recording = await record();
    expect(recording.turns[0]!.content![0]).toMatchObject({ type: 'tool_use', result: { content: 'hello' } });
    expect(recording.turns[1]!.content![0]).toMatchObject({ type: 'tool_use', result: { content: expect.stringContaining('hello') } });
    const made = toScenario(recording, { id: 'rec', title: 'Rec', prompt: 'Do the task.', files: {}, model: { kind: 'anthropic', model: 'test-model' } });
    if (!made.ok) throw new Error(made.errors.join('\n'));
    const kept = made.scenario.model.kind === 'recorded' ? made.scenario.model.turns[0]!.content[0] : null;
    expect(kept).toMatchObject({ result: { content: 'hello' } });
  });

  it('replays faithfully with no divergence, and diverges once a rule denies the recorded call', async () => {
    const recording = await record();
    const scenario = toRunnableScenario(JSON.parse(JSON.stringify(toScenario(recording, { id: 'rec', title: 'Rec', prompt: 'Do the task.', files: {}, model: { kind: 'anthropic', model: 'test-model' } }))).scenario);
    if (scenario.model.kind !== 'scripted') throw new Error('expected scripted');
    const same = await setup(scenario.model.turns);
    expect(diverged((await drain(same.input, same.deps)).events)).toEqual([]);

    const denied = await setup(scenario.model.turns, { input: { permissions: { mode: 'bypassPermissions', rules: [{ behavior: 'deny', source: 'project', rule: { kind: 'tool', tool: 'Bash', text: 'Bash' } }], workdir: WORKDIR } } });
    const events = (await drain(denied.input, denied.deps)).events;
    const d = diverged(events);
    expect(d.map((e) => [e.name, e.what, e.recordedTurn])).toEqual([
      ['bash', 'is_error', 1],
      // The file was never written, so the read fails where it succeeded.
      ['read', 'is_error', 2],
    ]);
    // Each is reported just before the model call that was shown the differing result.
    const at = events.indexOf(d[0]!);
    expect(events[at - 1]!.type).toBe('model.request');
  });
});

describe('built-in lessons', () => {
  const withResults = builtinDocs.filter(hasResults);

  it('at least the fix-a-bug style lessons and the divergence lesson carry recorded results', () => {
    expect(withResults.map((d) => d.id)).toEqual(expect.arrayContaining(['fix-a-bug', 'node-project-bug', 'pretooluse-hook-blocks', 'replay-diverges']));
  });

  it.each(withResults.filter((d) => d.id !== 'replay-diverges').map((d) => [d.id, d] as const))('%s replays faithfully: no divergence', async (_id, doc) => {
    expect(diverged(await runDoc(doc))).toEqual([]);
  });

  it.each(
    courseLessons()
      .filter((l) => hasResults(l) && l.id !== 'replay-diverges')
      .map((l) => [l.id, l] as const),
  )('%s: its “now try” makes a tool return what the recording did not see, and its note lands there', async (_id, lesson) => {
    const variant = nowTryVariant(lesson);
    const log = await runDoc(variant);
    expect(diverged(log).length).toBeGreaterThan(0);
    expect(placeNotes(variant.steps, log).map((n) => log[n.seq - 1]!.type)).toEqual(['run.start', 'replay.diverged']);
  });

  it('the recorded results are what a replay of the lesson sees (re-recording changes nothing)', async () => {
    if (fixABug.model.kind === 'anthropic') throw new Error('scripted');
    const log = await runDoc(fixABug);
    expect(withRecordedResults(fixABug.model.turns as ScriptedTurn[], log)).toEqual(fixABug.model.turns);
  });

  it('fix-a-bug diverges when a PreToolUse hook blocks the test', async () => {
    const block = { type: 'command' as const, command: `echo 'tests are frozen' >&2; exit 2`, timeout: 60 };
    const doc: ScenarioV1 = { ...fixABug, settings: { ...fixABug.settings, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [block] }] } } };
    const d = diverged(await runDoc(doc));
    expect(d.map((e) => [e.name, e.what, e.recordedTurn])).toEqual([
      ['bash', 'content', 1], // both failed, for different reasons
      ['bash', 'is_error', 4],
    ]);
    expect(d[0]!.expected.content).toContain('FAIL: expected 60');
    expect(d[0]!.actual.content).toContain('tests are frozen');
    expect(d[1]).toMatchObject({ expected: { content: 'PASS: total is 60', isError: false }, actual: { isError: true } });
    // Headless, the text output says so on stderr.
    expect(textLine(d[1]!)).toMatch(/^ {2}≠ replay diverged: bash \(turn 4 of the recording\) recorded ok “PASS: total is 60”, here an error “Permission to use bash/);
  });

  it('fix-a-bug’s “now try” (mode default: the edit is denied headless) diverges at the edit', async () => {
    const lesson = courseLessons().find((l) => l.id === 'fix-a-bug')!;
    const d = diverged(await runDoc(nowTryVariant(lesson)));
    expect(d[0]).toMatchObject({ name: 'edit', what: 'is_error', recordedTurn: 3 });
    // The re-run of the test then fails where the recording saw it pass.
    expect(d[1]).toMatchObject({ name: 'bash', recordedTurn: 4, expected: { content: 'PASS: total is 60' } });
  });

  it('the divergence lesson diverges as it teaches, and its “now try” (no hook) does not', async () => {
    const lesson = courseLessons().find((l) => l.id === 'replay-diverges')!;
    expect(diverged(await runDoc(lesson))).toHaveLength(1);
    expect(diverged(await runDoc(nowTryVariant(lesson)))).toEqual([]);
  });
});
