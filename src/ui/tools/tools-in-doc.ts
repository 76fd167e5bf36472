/** A document's settings with the custom tools and golden cases of the scenario being edited (absent ones removed). */
import type { Scenario } from '../../scenarios/schema.ts';

export function withToolsOf<S extends Scenario['settings']>(docSettings: S, edited: Scenario['settings']): S {
  const { customTools: _t, golden: _g, ...rest } = docSettings;
  return { ...rest, ...(edited.customTools?.length ? { customTools: edited.customTools } : {}), ...(edited.golden?.length ? { golden: edited.golden } : {}) } as S;
}
