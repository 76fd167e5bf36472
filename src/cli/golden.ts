/**
 * `harness-playground golden <scenario> [--trust]` (also `npm run scenario -- golden …`): re-runs
 * the scenario's golden cases (`settings.golden`) against its current tools, rules and hooks,
 * prints a table (and a diff per failure), and exits 0 when every case passes, 1 when one fails,
 * 2 for a bad command line or a scenario without cases. A file's hooks, allow rules and custom
 * tools apply only with `--trust`, as for a normal run.
 */
import type { Scenario } from '../scenarios/schema.ts';
import { EXIT } from './args.ts';
import type { Out } from './output.ts';

export const GOLDEN_USAGE = 'usage: harness-playground golden <scenario-id | file.json> [--trust]';

export async function goldenMain(
  argv: readonly string[],
  out: Out,
  loadScenario: (target: string) => Promise<{ scenario: Scenario; builtin: boolean }>,
): Promise<number> {
  const targets = argv.filter((a) => !a.startsWith('-'));
  const unknown = argv.filter((a) => a.startsWith('-') && a !== '--trust');
  if (unknown.length > 0 || targets.length !== 1) {
    out.stderr(`harness-playground: ${unknown.length ? `unknown option ${unknown[0]} for golden` : 'golden takes one scenario'}\n${GOLDEN_USAGE}\n`);
    return EXIT.usage;
  }
  const { scenario, builtin } = await loadScenario(targets[0]!);
  const cases = scenario.settings.golden ?? [];
  if (cases.length === 0) {
    out.stderr(`harness-playground: ${scenario.id} has no golden cases (settings.golden): record some in the app's Tools tab\n`);
    return EXIT.usage;
  }
  const [{ runGoldenCases, formatGoldenTable }, { scenarioGoldenEnv }, { createJustBashSandbox }, { createNodeToolRunner }, { createNodeJsHookRunner }] = await Promise.all([
    import('../harness/golden/index.ts'),
    import('../run/golden-env.ts'),
    import('../sandbox/justbash/index.ts'),
    import('../user-code/tools/node-tool-runner.ts'),
    import('../hooks-runtime/node-runner.ts'),
  ]);
  const trusted = builtin || argv.includes('--trust');
  const outcomes = await runGoldenCases(
    cases,
    scenarioGoldenEnv(scenario, { makeSandbox: () => createJustBashSandbox(), trusted, toolRunner: createNodeToolRunner(), jsRunner: createNodeJsHookRunner() }),
  );
  out.stdout(`golden cases of ${scenario.id}${trusted ? '' : ' (untrusted: its hooks, allow rules and custom tools are off; pass --trust)'}\n`);
  out.stdout(formatGoldenTable(outcomes));
  return outcomes.every((o) => o.pass) ? EXIT.ok : EXIT.runFailed;
}
