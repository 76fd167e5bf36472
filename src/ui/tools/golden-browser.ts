/**
 * Golden cases in the page: each case on a fresh just-bash sandbox, JS tools and JS hooks in the
 * opaque-origin user-code frame, the scenario's current settings (see `run/golden-env.ts`).
 */
import { runGoldenCases, type GoldenCase, type GoldenOutcome } from '../../harness/golden/index.ts';
import type { Scenario } from '../../scenarios/schema.ts';

export async function runGoldenInPage(scenario: Scenario, cases: readonly GoldenCase[], trusted: boolean, signal?: AbortSignal): Promise<GoldenOutcome[]> {
  const [{ scenarioGoldenEnv }, { createPreferredJustBash }, { pageToolRunner }, { createFrameJsHookRunner }, { sharedFrameRuntime }] = await Promise.all([
    import('../../run/golden-env.ts'),
    import('../../sandbox/select.ts'),
    import('./page-tool-runner.ts'),
    import('../../hooks-runtime/frame-runner.ts'),
    import('../../user-code/shared-runtime.ts'),
  ]);
  const env = scenarioGoldenEnv(scenario, {
    makeSandbox: async () => (await createPreferredJustBash()).sandbox,
    trusted,
    toolRunner: await pageToolRunner(),
    jsRunner: createFrameJsHookRunner(sharedFrameRuntime()),
  });
  return runGoldenCases(cases, env, signal);
}
