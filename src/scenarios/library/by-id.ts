/**
 * One built-in scenario by id, validating only that one. The headless runner names a single id
 * most of the time; importing `index.ts` validates all of the built-ins at load (a few hundred ms
 * on a busy machine). Each built-in's file name is its id (`scenarios-library.test.ts` checks),
 * so the bundler turns this import into a lazy table of the JSON files.
 */
import { migrateScenario } from '../migrate.ts';
import type { ScenarioV1 } from '../schema-v1.ts';

const ID = /^[a-z0-9][a-z0-9-]*$/;

/** The built-in with this id, migrated to v1 and validated; `undefined` when there is none. */
export async function loadBuiltinDoc(id: string): Promise<ScenarioV1 | undefined> {
  if (!ID.test(id)) return undefined;
  let json: unknown;
  try {
    json = ((await import(`./${id}.json`)) as { default: unknown }).default;
  } catch {
    return undefined;
  }
  const r = migrateScenario(json);
  if (!r.ok) throw new Error(`The built-in scenario ${id} is invalid:\n${r.errors.join('\n')}`);
  return r.scenario.id === id ? r.scenario : undefined;
}
