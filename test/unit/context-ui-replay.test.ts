import { describe, expect, it } from 'vitest';
import { builtinTools, FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { callLabel, derivePipelineCalls, LAYER_ORDER, latestAssembled } from '../../src/ui/context/derive.ts';
import { builtinToolCaps, firingDiff, recordedTotals, recordSession, replaySession } from '../../src/ui/context/replay.ts';
import { drain } from './loop-helpers.ts';

const caps = builtinToolCaps(builtinTools());

async function record(id: string): Promise<{ events: TraceEvent[]; settings: NonNullable<ReturnType<typeof findBuiltinScenario>>['settings'] }> {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no built-in scenario ${id}`);
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const { events, result } = await drain(input, deps);
  expect(result.reason).toBe('completed');
  await sandbox.dispose();
  return { events, settings: scenario.settings };
}

const firstFiring = (calls: { fired: string[] }[], layer: string) => calls.findIndex((c) => c.fired.includes(layer));

describe('context view: reading the log', () => {
  it('groups the five layers, the assembly, the request and the cache numbers per call', async () => {
    const { events } = await record('auto-compact');
    const calls = derivePipelineCalls(events);
    const requests = events.filter((e) => e.type === 'model.request').length;
    expect(calls).toHaveLength(requests);
    for (const c of calls) {
      expect(c.layers.map((l) => l.layer)).toEqual(LAYER_ORDER);
      expect(c.assembled).toBeDefined();
      expect(c.request).toBeDefined();
      expect(c.cache).toBeDefined();
    }
    const compacted = calls.find((c) => c.layers.some((l) => l.layer === 'auto_compact' && l.fired));
    expect(compacted, 'the auto-compact scenario compacts').toBeDefined();
    expect(compacted!.rewritten?.layers).toContain('auto_compact');
    expect(callLabel(calls[0]!)).toBe('turn 1');
    expect(latestAssembled(events)).toBe(calls.at(-1)!.assembled);
  });
});

describe('what-if replay', () => {
  it('under the recorded settings, fires where the run fired and prices the cache as the run did', async () => {
    const { events, settings } = await record('auto-compact');
    const session = recordSession(events);
    expect(session.approximate).toBe(false);
    expect(session.calls.length).toBeGreaterThanOrEqual(5);
    const replay = await replaySession(session, settings.context ?? {}, { toolCaps: caps });
    expect(replay.calls.map((c) => c.fired)).toEqual(session.calls.map((c) => c.fired));
    expect(replay.calls.map((c) => c.projected)).toEqual(session.calls.map((c) => c.projected));
    // The scripted model reports what the cache simulator says, so a faithful replay matches it to the token.
    expect(replay.calls.map((c) => c.cache)).toEqual(session.calls.map((c) => c.cache));
    expect(replay.totals.hitRate).toBeCloseTo(recordedTotals(session).hitRate, 10);
    expect(replay.totals.compactions).toBe(1);
  });

  it('a lower auto-compact line fires earlier; switching auto-compact off never fires and overshoots the line', async () => {
    const { events, settings } = await record('auto-compact');
    const session = recordSession(events);
    const base = await replaySession(session, settings.context ?? {}, { toolCaps: caps });
    const lower = await replaySession(session, { ...settings.context, autoCompactThreshold: 0.4 }, { toolCaps: caps });
    const off = await replaySession(session, { ...settings.context, autoCompact: { enabled: false } }, { toolCaps: caps });
    const at = firstFiring(base.calls, 'auto_compact');
    expect(at).toBeGreaterThan(0);
    expect(firstFiring(lower.calls, 'auto_compact')).toBeGreaterThanOrEqual(0);
    expect(firstFiring(lower.calls, 'auto_compact')).toBeLessThan(at);
    expect(lower.calls[0]!.threshold).toBe(Math.floor(0.4 * lower.calls[0]!.window));
    expect(firstFiring(off.calls, 'auto_compact')).toBe(-1);
    expect(off.totals.peak).toBeGreaterThan(off.calls[0]!.threshold);
    expect(firingDiff(base.calls, off.calls)).toEqual([{ call: at, added: [], removed: ['auto_compact'] }]);
  });

  it('microcompact without cache-awareness breaks the cache; switching it off keeps every prefix', async () => {
    const { events, settings } = await record('cache-breakage');
    const session = recordSession(events);
    const base = await replaySession(session, settings.context ?? {}, { toolCaps: caps });
    expect(base.calls.some((c) => c.breakDiff !== null)).toBe(true);
    const off = await replaySession(session, { ...settings.context, microcompact: { enabled: false } }, { toolCaps: caps });
    expect(off.calls.every((c) => c.breakDiff === null)).toBe(true);
    expect(off.totals.hitRate).toBeGreaterThan(base.totals.hitRate);
    expect(firstFiring(off.calls, 'microcompact')).toBe(-1);
  });

  it('turning budget reduction off keeps the oversized result verbatim (more tokens)', async () => {
    const { events, settings } = await record('budget-reduction');
    const session = recordSession(events);
    const base = await replaySession(session, settings.context ?? {}, { toolCaps: caps });
    const off = await replaySession(session, { ...settings.context, budget: { enabled: false } }, { toolCaps: caps });
    expect(firstFiring(base.calls, 'budget')).toBeGreaterThanOrEqual(0);
    expect(firstFiring(off.calls, 'budget')).toBe(-1);
    expect(off.totals.peak).toBeGreaterThan(base.totals.peak);
  });

  it('continues a follow-up run on the same history and merges replaced messages', async () => {
    const user = (text: string) => ({ role: 'user' as const, content: text });
    const meta = { seq: 0, ts: 0, agentId: 'main', turn: 1 };
    const req = (n: number) => ({ ...meta, type: 'model.request' as const, attempt: 1, request: { model: 'm', max_tokens: 10, messages: Array.from({ length: n }, () => user('x')) } });
    const events: TraceEvent[] = [
      { ...meta, type: 'run.start', model: 'm', modelClient: 's', sandbox: 'just-bash', tools: [], maxTurns: 3 },
      { ...meta, type: 'message.appended', origin: 'user', index: 0, message: user('first') },
      { ...meta, type: 'message.appended', origin: 'meta', index: 0, message: { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'hook context' }] } },
      req(1),
      { ...meta, type: 'message.appended', origin: 'assistant', index: 1, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } },
      { ...meta, type: 'run.start', model: 'm', modelClient: 's', sandbox: 'just-bash', tools: [], maxTurns: 3 },
      { ...meta, type: 'message.appended', origin: 'user', index: 2, message: user('again') },
      req(3),
    ];
    const session = recordSession(events);
    expect(session.calls).toHaveLength(2);
    expect(session.calls[0]!.ops.map((o) => o.kind)).toEqual(['append', 'replace']);
    const replay = await replaySession(session, {});
    expect(replay.calls).toHaveLength(2);
    // call 2 sees: merged first prompt, the reply, the follow-up prompt.
    expect(replay.calls[1]!.truth).toBeGreaterThan(replay.calls[0]!.truth);
  });
});
