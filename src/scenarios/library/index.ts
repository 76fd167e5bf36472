/**
 * The built-in scenarios. Each is validated at load, so a broken one fails loudly in tests.
 */
import { parseScenario, type Scenario } from '../schema.ts';
import parallelExploration from './parallel-exploration.json';
import fixABug from './fix-a-bug.json';
import maxTokensRecovery from './max-tokens-recovery.json';
import flakyModel from './flaky-model.json';

function load(json: unknown): Scenario {
  const r = parseScenario(json);
  if (!r.ok) throw new Error(`A built-in scenario is invalid:\n${r.errors.join('\n')}`);
  return r.scenario;
}

export const builtinScenarios: Scenario[] = [parallelExploration, fixABug, maxTokensRecovery, flakyModel].map(load);

export function findBuiltinScenario(id: string): Scenario | undefined {
  return builtinScenarios.find((s) => s.id === id);
}
