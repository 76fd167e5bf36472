/**
 * The "explain this event" table is complete and true to the runs: every event type and every
 * transition reason has an explanation pointing at a lesson that exists, every glossary term
 * used is defined, and every event the built-in lessons really produce can be explained from its
 * own data.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent, type TransitionReason } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { nodeSkillLoader } from '../../src/skills-bundle/node.ts';

// The built-in skills, as the app and the runner give them (a lesson loads one).
const skillFiles = await nodeSkillLoader()();
import { TRANSITION_REASONS } from '../../src/scenarios/schema-v1.ts';
import { EVENT_EXPLANATIONS } from '../../src/ui/explain/event-explanations.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { builtins } from '../../src/ui/state/builtins.svelte.ts';
import { GLOSSARY, GLOSSARY_TERMS } from '../../src/ui/explain/glossary.ts';
import { parseLessonHash } from '../../src/ui/explain/lesson-link.ts';
import { REASON_EXPLANATIONS } from '../../src/ui/explain/reason-explanations.ts';
import { STAGE_EXPLANATIONS } from '../../src/ui/explain/stage-explanations.ts';

const lessonIds = new Set(builtinDocs.map((d) => d.id));
// Compile-time: the runtime list and the union agree in both directions.
const reasons: readonly TransitionReason[] = TRANSITION_REASONS;
type Missing = Exclude<TransitionReason, (typeof TRANSITION_REASONS)[number]>;
const noneMissing: Missing[] = [];

describe('explain table', () => {
  it('has a reason entry for every transition reason, each with a real lesson', () => {
    expect(noneMissing).toEqual([]);
    expect(Object.keys(REASON_EXPLANATIONS).sort()).toEqual([...reasons].sort());
    for (const [reason, r] of Object.entries(REASON_EXPLANATIONS)) {
      expect(lessonIds, `lesson of ${reason}`).toContain(r.lesson);
      expect(r.means.length).toBeGreaterThan(20);
      expect(r.otherwise.length).toBeGreaterThan(10);
    }
  });

  it('points every event type, stage and glossary term at a lesson that exists', () => {
    for (const [type, e] of Object.entries(EVENT_EXPLANATIONS)) {
      expect(lessonIds, `lesson of ${type}`).toContain(e.lesson);
      for (const t of e.terms) expect(GLOSSARY_TERMS).toContain(t);
    }
    for (const [stage, s] of Object.entries(STAGE_EXPLANATIONS)) expect(lessonIds, `lesson of stage ${stage}`).toContain(s.lesson);
    for (const [term, g] of Object.entries(GLOSSARY)) expect(lessonIds, `lesson of term ${term}`).toContain(g.lesson);
    for (const r of Object.values(REASON_EXPLANATIONS)) for (const t of r.terms) expect(GLOSSARY_TERMS).toContain(t);
  });

  it('explains every event the built-in lessons produce, from the event’s own data', async () => {
    const seen = new Map<string, TraceEvent>();
    const seenReasons = new Set<string>();
    for (const doc of builtinDocs) {
      const sandbox = await createJustBashSandbox();
      const { log } = await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds(), skillFiles });
      await sandbox.dispose();
      for (const e of log) {
        const ex = explainEvent(e);
        expect(ex.why.length, `${doc.id} ${e.type}`).toBeGreaterThan(3);
        expect(ex.why).not.toMatch(/undefined|\[object Object\]/);
        if (!seen.has(e.type)) seen.set(e.type, e);
        if (e.type === 'transition') {
          seenReasons.add(e.reason);
          expect(ex.reason?.name).toBe(e.reason);
          expect(ex.lesson).toBe(REASON_EXPLANATIONS[e.reason].lesson);
        }
      }
    }
    // The lessons between them show nearly every event type and reason. Not headless: exact counts (live
    // model), a broken hook matcher, streamed tool output (the UI's sandbox), a person being asked, and
    // a background job still running when a run is stopped (the lessons' jobs all finish), a command
    // typed in the terminal (the person's own event, see ui-terminal-session.test.ts).
    // A teammate's tab closing (task.released), a tab joining (teammate.joined), nobody joining in time
    // and a tab going silent happen only with other tabs (teams-presence.test.ts explains them from real
    // runs); a custom tool saved while a run works (tools.changed) only in the page (custom-tools-live.test.ts);
    // a forged note on the wire between tabs (teammate.wire_dropped) only with a forger (team-channel.test.ts).
    // A background hook starting (hook.async_started) is explained from real runs in hooks-async.test.ts.
    const offline = new Set(['context.counted', 'hook.config_error', 'hook.async_started', 'tool.output', 'permission.prompt', 'background.stopped', 'terminal.command', 'task.released', 'teammate.joined', 'teammate.join_timeout', 'teammate.lost', 'teammate.wire_dropped', 'tools.changed']);
    for (const type of Object.keys(EVENT_EXPLANATIONS)) if (!offline.has(type)) expect([...seen.keys()], `an event ${type} in some lesson`).toContain(type);
    for (const r of ['next_turn', 'max_output_tokens_recovery', 'malformed_tool_use_retry', 'model_retry', 'empty_response_retry', 'stop_hook_blocking', 'reactive_compact_retry', 'completed', 'max_turns', 'refusal', 'prompt_blocked', 'steering_message'])
      expect([...seenReasons], `a transition ${r}`).toContain(r);
  }, 60_000);

  it('reads the “why” from the event: a deny names its rule, a transition its budget', () => {
    const base = { seq: 1, ts: 0, agentId: 'main', turn: 2 };
    const deny = explainEvent({
      ...base,
      type: 'permission.decision',
      toolUseId: 't1',
      name: 'bash',
      decision: 'deny',
      stage: 'rules',
      reason: 'matched a deny rule',
      decidedBy: { kind: 'rule', text: 'Bash(rm -rf *)' },
    });
    expect(deny.why).toContain('Bash(rm -rf *)');
    expect(deny.stage?.name).toBe('rules');
    const t = explainEvent({ ...base, type: 'transition', reason: 'max_output_tokens_recovery', detail: 'recovery 2 of 3' });
    expect(t.why).toContain('recovery 2 of 3');
    expect(t.reason?.site).toMatch(/maxOutputTokensRecoveries/);
    expect(t.lesson).toBe('max-tokens-recovery');
  });

  it('opens lessons only from well-formed links to lessons that exist (the page parses once the library is loaded)', async () => {
    await builtins.load();
    expect(parseLessonHash('#lesson=fix-a-bug&step=12')).toEqual({ id: 'fix-a-bug', step: 12 });
    expect(parseLessonHash('#lesson=fix-a-bug')).toEqual({ id: 'fix-a-bug', step: null });
    expect(parseLessonHash('#lesson=no-such-lesson')).toBeNull();
    expect(parseLessonHash('#lesson=fix-a-bug&step=0')).toBeNull();
    expect(parseLessonHash('#lesson=../x')).toBeNull();
    expect(parseLessonHash('#s=abc')).toBeNull();
  });
});
