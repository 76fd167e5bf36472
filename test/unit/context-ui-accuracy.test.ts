import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { errorText, estimateAccuracy } from '../../src/ui/context/accuracy.ts';
import { drain } from './loop-helpers.ts';

describe('estimateAccuracy', () => {
  it('compares the latest estimate with the reply usage, marked simulated for a scripted model', async () => {
    const scenario = findBuiltinScenario('fix-a-bug')!;
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    const acc = estimateAccuracy(events)!;
    const lastAssembled = events.filter((e) => e.type === 'context.assembled').at(-1)!;
    expect(acc.estimate).toBe(lastAssembled.type === 'context.assembled' && lastAssembled.total);
    expect(acc.usage?.simulated).toBe(true);
    expect(acc.usage!.actual).toBeGreaterThan(0);
    expect(acc.counted).toBeUndefined();
  });

  it('uses a count_tokens result and formats the error with its sign', () => {
    const base = { seq: 1, ts: 1, agentId: 'main', turn: 1 };
    const acc = estimateAccuracy([
      { ...base, type: 'context.assembled', parts: { system: 1, tools: 1, messages: 98 }, total: 100, messageCount: 1 },
      { ...base, seq: 2, type: 'context.counted', estimate: 100, actual: 80, difference: 20, relativeError: 0.25 },
    ])!;
    expect(acc.counted).toMatchObject({ actual: 80, error: 20 });
    expect(errorText(acc.counted!)).toBe('+25.0 %');
    expect(errorText({ estimate: 90, actual: 100, error: -10, relativeError: -0.1 })).toBe('−10.0 %');
    expect(estimateAccuracy([])).toBeNull();
  });
});
