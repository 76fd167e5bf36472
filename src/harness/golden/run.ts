/**
 * Re-runs golden cases against the current tools, rules and hooks. Each case is one real run of
 * the agent loop — the whole permission pipeline, hooks and the tool itself on a fresh sandbox
 * holding the case's files — driven by a model that makes exactly the recorded call (the caller
 * builds it: `start`). Cases run one after another; a case that cannot start is a failure that
 * says why, and the rest still run.
 */
import { agentLoop } from '../loop/agent-loop.ts';
import type { LoopDeps, LoopInput } from '../loop/types.ts';
import type { TraceEvent } from '../trace.ts';
import type { GoldenCase, GoldenObserved } from './case.ts';
import { compareObserved, type GoldenDiff } from './compare.ts';
import { observeCall } from './observe.ts';

/** The tool-use id the golden model gives the recorded call. */
export const GOLDEN_TOOL_USE_ID = 'toolu_golden_1';

export type GoldenRunEnv = {
  /** A run for the case: sandbox seeded with `c.files`, the current settings, a model that calls `c.tool` with `c.input` as {@link GOLDEN_TOOL_USE_ID}. */
  start(c: GoldenCase): Promise<{ input: LoopInput; deps: LoopDeps; dispose: () => Promise<void> }>;
};

export type GoldenOutcome = {
  id: string;
  label: string;
  pass: boolean;
  expected: GoldenObserved;
  /** Null when the call produced no result (the run could not start, or ended before the call). */
  actual: GoldenObserved | null;
  diffs: GoldenDiff[];
  /** Why there is no `actual`. */
  error?: string;
};

export async function runGoldenCase(c: GoldenCase, env: GoldenRunEnv, signal?: AbortSignal): Promise<GoldenOutcome> {
  const base = { id: c.id, label: c.label, expected: c.expected };
  if (signal?.aborted) return { ...base, pass: false, actual: null, diffs: [], error: STOPPED };
  let run: Awaited<ReturnType<GoldenRunEnv['start']>>;
  try {
    run = await env.start(c);
  } catch (e) {
    return { ...base, pass: false, actual: null, diffs: [], error: `the case could not start: ${e instanceof Error ? e.message : String(e)}` };
  }
  const events: TraceEvent[] = [];
  try {
    // Stop (the signal) ends the case's run as it ends any run: mid-tool, mid-wait.
    const gen = agentLoop(signal ? { ...run.input, signal } : run.input, run.deps);
    for (;;) {
      const r = await gen.next();
      if (r.done) break;
      events.push(r.value);
    }
  } finally {
    await run.dispose().catch(() => {});
  }
  const actual = observeCall(events, GOLDEN_TOOL_USE_ID);
  if (!actual) {
    const end = events.find((e) => e.type === 'run.end');
    return { ...base, pass: false, actual: null, diffs: [], error: `the call did not run (the run ended ${end && 'reason' in end ? String(end.reason) : 'early'})` };
  }
  const diffs = compareObserved(c.expected, actual);
  return { ...base, pass: diffs.length === 0, actual, diffs };
}

/** Why a case has no result after Stop. */
export const STOPPED = 'stopped before it ran (Stop)';

/** Every case in order; `signal` (Stop) ends the case under way and skips the rest, each saying so. */
export async function runGoldenCases(cases: readonly GoldenCase[], env: GoldenRunEnv, signal?: AbortSignal): Promise<GoldenOutcome[]> {
  const out: GoldenOutcome[] = [];
  for (const c of cases) out.push(await runGoldenCase(c, env, signal));
  return out;
}
