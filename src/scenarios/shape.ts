/**
 * Scenario shapes without their schemas: the header fields, the settings.json part, and a v1
 * document as the v0 shape a run takes. Pure functions on already-validated documents, apart from
 * the zod schemas (`schema.ts`, `schema-v1.ts`) so the first screen can use them (a built-in's
 * runnable copy, the permission context) before any document is parsed.
 */
import type { Settings } from '../harness/settings/light.ts';
import type { Scenario, ScenarioHeader } from './schema.ts';
import type { ScenarioV1 } from './schema-v1.ts';

/**
 * The header fields copied by name (`notes` only when set), for building one scenario shape from
 * another: nothing else rides along.
 */
export function scenarioHeader(s: ScenarioHeader): ScenarioHeader {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    ...(s.notes !== undefined ? { notes: s.notes } : {}),
  };
}
/** The settings.json part of a scenario's settings (permissions, hooks, YAML tiers). */
export function harnessSettingsOf(scenario: Scenario): Settings {
  const { permissions, hooks, always_deny, always_allow, ask_user } = scenario.settings;
  return {
    ...(permissions ? { permissions } : {}),
    ...(hooks ? { hooks } : {}),
    ...(always_deny ? { always_deny } : {}),
    ...(always_allow ? { always_allow } : {}),
    ...(ask_user ? { ask_user } : {}),
  };
}

/** Where skills go in the sandbox, as Claude Code lays them out in a project. */
export const skillPath = (name: string) => `.claude/skills/${name}/SKILL.md`;

/**
 * `toRunnableScenario` without its validation, as a deep copy: for a document the build already
 * validated (a built-in, `library/prebuilt.ts`), where the v0 parse changes nothing (a unit test
 * checks every built-in) but is the page's costliest zod work on load.
 */
export function toRunnableScenarioValidated(s: ScenarioV1, promptIndex = 0): Scenario {
  return structuredClone(runnableShape(s, promptIndex)) as Scenario;
}

/** The v0 shape of prompt `promptIndex` of `s` (not yet validated or copied: the two callers do one of each). */
export function runnableShape(s: ScenarioV1, promptIndex: number) {
  const prompt = s.prompts[promptIndex];
  if (prompt === undefined) throw new RangeError(`The scenario has ${s.prompts.length} prompt(s); there is no prompt ${promptIndex + 1}.`);
  const skills = Object.fromEntries(Object.entries(s.skills).map(([name, text]) => [skillPath(name), text]));
  const model = s.model.kind === 'recorded' ? { kind: 'scripted' as const, turns: s.model.turns } : s.model;
  return {
    version: 0,
    ...scenarioHeader(s),
    prompt,
    files: { ...s.files, ...s.memoryFiles, ...skills },
    model,
    settings: s.settings,
  };
}
