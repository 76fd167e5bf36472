/**
 * Everything in a scenario that can act once trusted: its settings' hooks, allow rules and
 * permissive mode (`actionableContent`), plus its custom tools, which run code like hooks do.
 * `scenarioCarriers` adds what its files carry (`.claude/settings*.json`, `.mcp.json`, agents,
 * skills, commands, CLAUDE.md): the whole trust question (`harness/trust/carriers.ts`).
 */
import { actionableContent, documentCarriers, type ActionableContent, type DocumentCarriers } from '../harness/trust/index.ts';
import { approvalSettingsOf } from '../harness/mcp/index.ts';
import { harnessSettingsOf, type Scenario } from './schema.ts';

export function scenarioActionableContent(scenario: Scenario): ActionableContent {
  const tools = (scenario.settings.customTools ?? []).map((t) => `${t.name} (${t.implementation.kind})`);
  return { ...actionableContent(harnessSettingsOf(scenario)), ...(tools.length > 0 ? { tools } : {}) };
}

/** Every carrier of the scenario: its own settings and tools, and what its files bring. */
export function scenarioCarriers(scenario: Scenario): DocumentCarriers {
  return documentCarriers({
    settings: harnessSettingsOf(scenario),
    mcpApproval: approvalSettingsOf(scenario.settings as Record<string, unknown>),
    customTools: scenario.settings.customTools ?? [],
    files: scenario.files,
  });
}
