/**
 * Scenario versions: `migrateScenario` reads a v0 or v1 document (a file, a link, the library)
 * and returns v1, or says why it cannot. A document from a newer build is refused by name rather
 * than half-read. `toRunnableScenario` is the bridge back to what `prepare.ts` runs today (v0):
 * until `prepare.ts` reads v1 itself, a v1 scenario runs through it unchanged.
 */
import { parseScenario, scenarioHeader, type Scenario } from './schema.ts';
import { runnableShape } from './shape.ts';
import { scenarioV1Schema, type ScenarioV1 } from './schema-v1.ts';

export const LATEST_SCENARIO_VERSION = 1;

export type MigrateResult = { ok: true; scenario: ScenarioV1; from: 0 | 1 } | { ok: false; errors: string[] };

const issuesOf = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);

export function migrateScenario(json: unknown): MigrateResult {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, errors: ['(root): a scenario is a JSON object'] };
  const version = (json as { version?: unknown }).version ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { ok: false, errors: [`version: ${JSON.stringify(version)} is not a scenario version (0 or 1)`] };
  }
  if (version > LATEST_SCENARIO_VERSION) {
    return {
      ok: false,
      errors: [
        `version: this scenario was written for format version ${version}, and this build of Harness Playground reads versions 0 to ${LATEST_SCENARIO_VERSION}. Reload the page to get the newest build, or ask the author for an older export.`,
      ],
    };
  }
  if (version === 1) {
    const r = scenarioV1Schema.safeParse(json);
    return r.success ? { ok: true, scenario: r.data, from: 1 } : { ok: false, errors: issuesOf(r.error.issues) };
  }
  const v0 = parseScenario(json);
  if (!v0.ok) return v0;
  return { ok: true, scenario: fromV0(v0.scenario), from: 0 };
}

/** v0 → v1: the prompt becomes the first (only) prompt; everything new starts empty. */
export function fromV0(s: Scenario): ScenarioV1 {
  return scenarioV1Schema.parse({
    version: 1,
    ...scenarioHeader(s),
    prompts: [s.prompt],
    files: s.files,
    model: s.model,
    settings: s.settings,
  });
}

/**
 * A v1 scenario as the v0 shape `prepareRun` takes: prompt number `promptIndex`, memory files and
 * skills written among the files, a recorded model played as a scripted one. Lessons (steps,
 * questions, breakpoints) are not part of a run and are left out.
 */
export function toRunnableScenario(s: ScenarioV1, promptIndex = 0): Scenario {
  const r = parseScenario(runnableShape(s, promptIndex));
  if (!r.ok) throw new Error(`A valid v1 scenario did not convert to v0: ${r.errors.join('; ')}`);
  return r.scenario;
}

export { skillPath, toRunnableScenarioValidated } from './shape.ts';
