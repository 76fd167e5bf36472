/**
 * `toScenario(recording, base)`: a recorded run as a shareable scenario. The base scenario gives
 * the files, settings, prompts and lesson material; the model becomes the recorded turns, so
 * the scenario replays exactly, offline, with no key. It lives on the scenarios side (it builds
 * scenarios; the recorder only records), so `model/` never imports `scenarios/`.
 */
import { redactDeep } from '../harness/session/light.ts';
import { migrateScenario } from './migrate.ts';
import { scenarioV1Schema, type ScenarioV1 } from './schema-v1.ts';
import type { Recording } from '../model/recorder/recording-client.ts';

export type ToScenarioOptions = {
  /** The prompts the recorded run was given, in order (default: the base scenario's). */
  prompts?: string[];
  id?: string;
  title?: string;
  /** Strings to remove wherever they appear (the API key used for the recording). */
  secrets?: readonly string[];
};

export type ToScenarioResult = { ok: true; scenario: ScenarioV1 } | { ok: false; errors: string[] };

/** `base` may be a v0 or v1 scenario (or its JSON). */
export function toScenario(recording: Recording, base: unknown, opts: ToScenarioOptions = {}): ToScenarioResult {
  if (recording.turns.length === 0) return { ok: false, errors: ['Nothing was recorded: run the scenario with a live model first.'] };
  const migrated = migrateScenario(base);
  if (!migrated.ok) return migrated;
  const b = migrated.scenario;
  const doc = redactDeep(
    {
      ...b,
      ...(opts.id ? { id: opts.id } : {}),
      title: opts.title ?? b.title,
      prompts: opts.prompts ?? b.prompts,
      model: {
        kind: 'recorded',
        turns: recording.turns,
        recordedAt: recording.recordedAt ?? new Date(0).toISOString(),
        modelId: recording.modelId ?? 'unknown',
      },
    },
    opts.secrets,
  );
  const r = scenarioV1Schema.safeParse(doc);
  if (!r.success) return { ok: false, errors: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
  return { ok: true, scenario: r.data };
}
