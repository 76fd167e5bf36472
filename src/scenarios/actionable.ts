/**
 * Everything in a scenario that can act once trusted: its settings' hooks, allow rules and
 * permissive mode (`actionableContent`), plus its custom tools, which run code like hooks do.
 */
import { actionableContent, type ActionableContent } from '../harness/trust/index.ts';
import { harnessSettingsOf, type Scenario } from './schema.ts';

export function scenarioActionableContent(scenario: Scenario): ActionableContent {
  const tools = (scenario.settings.customTools ?? []).map((t) => `${t.name} (${t.implementation.kind})`);
  return { ...actionableContent(harnessSettingsOf(scenario)), ...(tools.length > 0 ? { tools } : {}) };
}
