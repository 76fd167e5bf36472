/**
 * The what-if's knobs and its replays. Knobs start at the recorded run's settings; every change
 * (and every new model call in the log) re-runs the replay, debounced, dropping stale results.
 */
import type { CompactionLayerName, TraceEvent } from '../../harness/index.ts';
import { builtinTools } from '../../harness/index.ts';
import { parseContextSettings, type ContextSettings, type ContextSettingsInput } from '../../harness/context/index.ts';
import { builtinToolCaps, recordedTotals, recordSession, replaySession, type RecordedSession, type ReplayResult, type ReplayTotals } from './replay.ts';

export type Knobs = {
  threshold: number;
  windowTokens: number;
  layers: Record<CompactionLayerName, boolean>;
};

const DEBOUNCE_MS = 120;

export function knobsOf(s: ContextSettings): Knobs {
  return {
    threshold: s.autoCompactThreshold,
    windowTokens: s.windowTokens,
    layers: {
      budget: s.budget.enabled,
      snip: s.snip.enabled,
      microcompact: s.microcompact.enabled,
      collapse: s.collapse.enabled,
      auto_compact: s.autoCompact.enabled,
    },
  };
}

/** The recorded settings with the knobs applied. */
export function settingsWith(base: ContextSettings, k: Knobs): ContextSettings {
  return parseContextSettings({
    ...base,
    windowTokens: k.windowTokens,
    autoCompactThreshold: k.threshold,
    budget: { ...base.budget, enabled: k.layers.budget },
    snip: { ...base.snip, enabled: k.layers.snip },
    microcompact: { ...base.microcompact, enabled: k.layers.microcompact },
    collapse: { ...base.collapse, enabled: k.layers.collapse },
    autoCompact: { ...base.autoCompact, enabled: k.layers.auto_compact },
  } as ContextSettingsInput);
}

export class WhatIf {
  knobs = $state<Knobs>(knobsOf(parseContextSettings({})));
  base = $state.raw<ContextSettings>(parseContextSettings({}));
  session = $state.raw<RecordedSession>({ initial: [], calls: [], approximate: false });
  recorded = $state.raw<ReplayTotals | null>(null);
  baseline = $state.raw<ReplayResult | null>(null);
  result = $state.raw<ReplayResult | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);

  private readonly caps = builtinToolCaps(builtinTools());
  private baseKey = '';
  private token = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private abort: AbortController | null = null;

  /** New recorded settings (another scenario): the knobs go back to them. */
  setBase(input: ContextSettingsInput | undefined): void {
    const key = JSON.stringify(input ?? {});
    if (key === this.baseKey) return;
    this.baseKey = key;
    this.base = parseContextSettings(input ?? {});
    this.knobs = knobsOf(this.base);
  }

  resetKnobs(): void {
    this.knobs = knobsOf(this.base);
  }

  /** The knobs differ from the recorded settings. */
  get changed(): boolean {
    return JSON.stringify(this.knobs) !== JSON.stringify(knobsOf(this.base));
  }

  /** Re-read the log and replay (debounced). `events` only grows within a session. */
  schedule(events: readonly TraceEvent[], knobs: Knobs): void {
    if (this.timer) clearTimeout(this.timer);
    const token = ++this.token;
    this.timer = setTimeout(() => void this.replay(events, knobs, token), DEBOUNCE_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.abort?.abort();
    this.token++;
  }

  private async replay(events: readonly TraceEvent[], knobs: Knobs, token: number): Promise<void> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.busy = true;
    try {
      const session = recordSession(events);
      const opts = { toolCaps: this.caps, signal: abort.signal };
      const baseline = await replaySession(session, this.base, opts);
      const result = await replaySession(session, settingsWith(this.base, knobs), opts);
      if (token !== this.token) return;
      this.session = session;
      this.recorded = recordedTotals(session);
      this.baseline = baseline;
      this.result = result;
      this.error = null;
    } catch (err) {
      if (token !== this.token) return;
      this.error = `The replay failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      if (token === this.token) this.busy = false;
    }
  }
}
