/**
 * Record a live run into a scenario. While "Record" is on, every live client a run creates is
 * wrapped by `createRecordingClient` (the API key is redacted from what it keeps); "Save as
 * scenario" joins the runs' turns, in order, with the prompts that started them into a v1
 * scenario whose model is the recording — it replays with no key and travels in a link.
 */
import { realClock } from '../../harness/clock.ts';
import type { ModelClient } from '../../harness/index.ts';
import { replaySession } from '../../harness/session/light.ts';
import { createRecordingClient, type RecordingClient } from '../../model/recorder/recording-client.ts';
import { documents } from '../state/documents.ts';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import type { ModelSettings } from '../state/settings.svelte.ts';

export class Recorder {
  enabled = $state(false);
  /** Model calls recorded so far in this conversation (updated after each run). */
  calls = $state(0);
  private clients: RecordingClient[] = [];

  /**
   * Built before the run controller, whose live clients it wraps (`wrap` is the controller's
   * `wrapLive` hook); `events` reads the controller's log when a recording is saved.
   */
  constructor(
    private readonly settings: ModelSettings,
    private readonly events: () => readonly TraceEvent[],
  ) {}

  /** Wraps a live client: while Record is on, its calls are recorded. */
  readonly wrap = (client: ModelClient): ModelClient => {
    if (!this.enabled) return client;
    const rec = createRecordingClient(client, { clock: realClock, secrets: this.secrets() });
    this.clients.push(rec);
    return rec;
  };

  private secrets(): string[] {
    const key = this.settings.apiKey.trim();
    return key ? [key] : [];
  }

  /** Forget what was recorded (a new conversation). */
  clear(): void {
    this.clients = [];
    this.calls = 0;
  }

  /** Re-count after a run: the recording of a call is complete once its stream ended. */
  refresh(): void {
    this.calls = this.clients.reduce((n, c) => n + c.recording().turns.length, 0);
  }

  /** The recorded runs as a v1 scenario built on `base`, or why not. After `loadDocuments()` (the stepper panel has). */
  save(base: ScenarioV1): { ok: true; scenario: ScenarioV1 } | { ok: false; error: string } {
    const recordings = this.clients.map((c) => c.recording());
    const turns = recordings.flatMap((r) => r.turns);
    if (turns.length === 0) return { ok: false, error: 'Nothing was recorded yet: turn Record on, then run with the live model.' };
    const first = recordings.find((r) => r.modelId !== null);
    const prompts = replaySession(this.events()).runs.flatMap((r) => (r.prompt ? [r.prompt] : []));
    const r = documents().toScenario(
      { turns, modelId: first?.modelId ?? null, recordedAt: first?.recordedAt ?? null },
      base,
      {
        ...(prompts.length ? { prompts } : {}),
        id: `${base.id.replace(/-recorded$/, '')}-recorded`,
        title: `${base.title} (recorded)`,
        secrets: this.secrets(),
      },
    );
    return r.ok ? r : { ok: false, error: `The recording could not be saved: ${r.errors.slice(0, 3).join('; ')}` };
  }
}
