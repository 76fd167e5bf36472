/** What the loop diagram's Tools node says about custom tools: a count under the title, the names in its tooltip. */
import type { Scenario } from '../../scenarios/schema.ts';

export function toolsNodeText(scenario: Scenario, sub: string, about: string): { sub: string; about: string } {
  const names = (scenario.settings.customTools ?? []).map((t) => t.name);
  if (names.length === 0) return { sub, about };
  return { sub: `bash · read · +${names.length} custom`, about: `${about} Custom tools: ${names.join(', ')}.` };
}
