/** Stepping grains stop after the event they name, on a real lesson's log. */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { grainOfKey, grainStop } from '../../src/ui/stepper/grain.ts';

describe('stepping grains', () => {
  it('stop at the next request, tool call, decision and end of turn, in that order on fix-a-bug', async () => {
    const sandbox = await createJustBashSandbox();
    const { log } = await runLessonHeadless(builtinDocs.find((d) => d.id === 'fix-a-bug')!, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    await sandbox.dispose();
    const request = grainStop('request', log, 0)!;
    const tool = grainStop('tool', log, request)!;
    const decision = grainStop('decision', log, tool)!;
    const turn = grainStop('turn', log, decision)!;
    expect([log[request - 1]!.type, log[tool - 1]!.type, log[decision - 1]!.type, log[turn - 1]!.type]).toEqual([
      'model.request',
      'tool.proposed',
      'permission.decision',
      'transition',
    ]);
    expect(request < tool && tool < decision && decision < turn).toBe(true);
    // The next request after the end of turn 1 belongs to turn 2.
    expect(log[grainStop('request', log, turn)! - 1]!.turn).toBe(2);
    expect(grainStop('request', log, log.length)).toBeNull();
  });

  it('have keys M, T, D, E', () => {
    expect(['m', 't', 'd', 'e', 'q'].map(grainOfKey)).toEqual(['request', 'tool', 'decision', 'turn', null]);
  });
});
