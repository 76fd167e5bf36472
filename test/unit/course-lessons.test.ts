/**
 * The course's lessons are real: each validates, runs headless to the exit it promises with a
 * valid transcript in every prompt's run, places every note, asks questions whose answer is the
 * transition the replay really produces next, has a "now try" that really changes the run, and
 * fits in a share link. This is where `npm test` runs every lesson headless (it once ran them a
 * second time as `test:scenarios`, which checked only the exit and the transcripts — both here).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { decodeScenarioLinkV1, encodeScenarioLinkV1 } from '../../src/scenarios/codec.ts';
import { courseChapters, courseLessons, nextLesson, nowTryVariant } from '../../src/scenarios/course.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { claimMatches, runSignature as signature } from '../../src/scenarios/run-signature.ts';
import { nodeSkillLoader } from '../../src/skills-bundle/node.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';

// The built-in skills, as the app and the runner give them (a lesson loads one).
const skillFiles = await nodeSkillLoader()();
import { TRANSITION_REASONS, type ScenarioV1 } from '../../src/scenarios/schema-v1.ts';
import { placeNotes, questionPlacementWarning } from '../../src/ui/author/lesson-logic.ts';
import { FITS, lessonFit } from '../../src/ui/author/lesson-fit.ts';

async function run(doc: ScenarioV1) {
  const sandbox = await createJustBashSandbox();
  try {
    return await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds(), skillFiles, toolRunner: createNodeToolRunner() });
  } finally {
    await sandbox.dispose();
  }
}

/** Each lesson as shipped runs once (a fake clock and fixed ids make every run of it identical); its tests share the run. */
const shipped = new Map<string, ReturnType<typeof run>>();
const runShipped = (doc: ScenarioV1) => shipped.get(doc.id) ?? shipped.set(doc.id, run(doc)).get(doc.id)!;

const lessons = courseLessons();

describe('the course', () => {
  it('has at least 22 lessons, every built-in one of them, lesson 1 first', () => {
    expect(lessons.length).toBeGreaterThanOrEqual(22);
    expect(lessons.map((l) => l.id).sort()).toEqual(builtinDocs.map((d) => d.id).sort());
    expect(lessons[0]!.id).toBe(builtinDocs[0]!.id);
    expect(courseChapters().map((c) => c.chapter)).toEqual(['loop', 'tools', 'safety', 'context', 'memory-sessions', 'agents', 'teams', 'extending']);
    expect(nextLesson(lessons[0]!.id)?.id).toBe(lessons[1]!.id);
    expect(nextLesson(lessons.at(-1)!.id)).toBeNull();
  });

  it.each(lessons.map((l) => [l.id, l] as const))('%s: runs headless, notes land, questions answer true', async (_id, doc) => {
    expect(doc.lesson.goal).toMatch(/\.$/);
    expect(doc.questions.length).toBeGreaterThanOrEqual(1);
    expect(doc.steps.length).toBeGreaterThanOrEqual(1);
    const { log, results } = await runShipped(doc);
    expect(results.at(-1)!.reason).toBe(doc.lesson.endsWith);
    expect(results.flatMap((r) => checkTranscript(r.messages))).toEqual([]);
    expect(placeNotes(doc.steps, log)).toHaveLength(doc.steps.length);
    // Its own replay is the run the notes and questions were written for: all of them show.
    expect(lessonFit(doc, log)).toEqual(FITS);
    for (const q of doc.questions) {
      for (const c of q.choices) expect(TRANSITION_REASONS).toContain(c);
      expect(q.atSeq).toBeLessThanOrEqual(log.length);
      // Asked at log seq atSeq: the answer is not on screen yet, and it is the next transition the run makes.
      const next = log.slice(q.atSeq).find((e) => e.type === 'transition');
      expect(next && next.type === 'transition' ? next.reason : null, q.question).toBe(q.choices[q.answer]);
      expect(questionPlacementWarning(q, log), q.question).toBeNull();
    }
  });

  it.each(lessons.map((l) => [l.id, l] as const))('%s: “now try” does what its text claims', async (_id, doc) => {
    const before = signature((await runShipped(doc)).log);
    const variant = nowTryVariant(doc);
    const after = signature((await run(variant)).log);
    expect(after).not.toEqual(before);
    // The claim, checked against the variant's actual run: every line it names is there (or is
    // not), and the claim is about the change: at least one of its lines was not so before.
    const claim = doc.lesson.nowTry.expect;
    expect(claim, 'every lesson states its now-try claim as signature lines (nowTry.expect)').toBeDefined();
    const has = (log: string[], c: string) => log.some((l) => claimMatches(c, l));
    for (const c of claim!.has ?? []) expect(has(after, c), `the variant's run has “${c}”: ${after.join(' | ')}`).toBe(true);
    for (const c of claim!.lacks ?? []) expect(has(after, c), `the variant's run lacks “${c}”`).toBe(false);
    const changed = [...(claim!.has ?? []).map((c) => !has(before, c) || before.filter((l) => claimMatches(c, l)).length < after.filter((l) => claimMatches(c, l)).length), ...(claim!.lacks ?? []).map((c) => has(before, c))];
    expect(changed.some(Boolean), 'the claim names something the change changed').toBe(true);
  });

  it('every lesson fits in a small share link and comes back whole', () => {
    for (const doc of builtinDocs) {
      const link = encodeScenarioLinkV1(doc);
      expect(link.length, doc.id).toBeLessThan(8 * 1024);
      const back = decodeScenarioLinkV1(link);
      expect(back.ok && back.scenario.lesson).toEqual(doc.lesson);
    }
  });
});
