/**
 * The default built-in (the first in the picker), on its own: the first screen paints and runs it
 * while the rest of the library (about 70 kB gzip of lesson scripts) loads on demand from `index.ts`.
 */
import { migrateScenario } from '../migrate.ts';
import type { ScenarioV1 } from '../schema-v1.ts';
import parallelExploration from './parallel-exploration.json';

/** A built-in document migrated to v1 and validated; a broken one throws (tests load every one). */
export function migrateBuiltin(json: unknown): ScenarioV1 {
  const r = migrateScenario(json);
  if (!r.ok) throw new Error(`A built-in scenario is invalid:\n${r.errors.join('\n')}`);
  return r.scenario;
}

export const firstBuiltinDoc: ScenarioV1 = migrateBuiltin(parallelExploration);
