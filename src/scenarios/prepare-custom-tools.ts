/**
 * A scenario's custom tools join the pool (through the general extra-tools seam) only when the
 * scenario is trusted: like its hooks, an untrusted document's tools are neither offered to the
 * model nor run. Built-ins and the user's own edits are trusted by the caller.
 */
import type { UserToolRunner } from '../harness/ports.ts';
import type { AnyTool } from '../harness/tools/tool.ts';
import { customTool } from '../harness/tools/custom/build.ts';
import { withExtraTools } from '../harness/tools/custom/extra-tools.ts';
import type { Scenario } from './schema.ts';

export function withCustomTools(base: AnyTool[], scenario: Scenario, trusted: boolean, runner?: UserToolRunner): AnyTool[] {
  const defs = scenario.settings.customTools ?? [];
  if (!trusted || defs.length === 0) return base;
  const tools = defs.map((d) => customTool(d, runner ? { runner } : {}));
  return withExtraTools(base, [{ label: 'custom tools', tools }]).tools;
}
