/**
 * Property: over random histories × random settings, every request the pipeline projects is valid
 * for the API (checkTranscript), carries at most 4 breakpoints, and the stored history handed in
 * is never mutated; collapse alone never commits. Sessions run several calls so state carries over.
 * Seeded: a failure prints its seed and reproduces.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/harness/messages.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { prepareContext } from '../../src/harness/context/pipeline.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import type { ContextSettingsInput } from '../../src/harness/context/settings.ts';
import { countBreakpoints, MAX_BREAKPOINTS } from '../../src/harness/context/cache.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { drain, exchange, int, layerEvents, randomHistory, rng, SYSTEM, tools } from './context-fixtures.ts';

function randomSettings(r: () => number): ContextSettingsInput {
  const on = () => r() < 0.6;
  return {
    windowTokens: int(r, 3_000, 60_000),
    autoCompactThreshold: 0.5 + r() * 0.5,
    budget: { enabled: on(), defaultMaxChars: int(r, 200, 40_000), perMessageChars: int(r, 500, 120_000), previewLines: int(r, 0, 6) },
    snip: { enabled: on(), keepLastExchanges: int(r, 1, 8), slack: int(r, 1, 4) },
    microcompact: { enabled: on(), keepRecent: int(r, 0, 6), minChars: int(r, 0, 2_000), cacheAware: on() },
    collapse: {
      enabled: on(),
      threshold: 0.2 + r() * 0.8,
      keepRecentExchanges: int(r, 1, 5),
      // Authored ranges, often invalid (misaligned, out of bounds, overlapping): must be ignored safely.
      ranges: r() < 0.4 ? Array.from({ length: int(r, 1, 3) }, () => ({ from: int(r, 1, 12), to: int(r, 2, 16) })) : [],
    },
    autoCompact: { enabled: on() },
    cache: { enabled: on(), previousTurnBreakpoint: on(), sortTools: on() },
  };
}

describe('context pipeline property', () => {
  it('projects API-valid requests and never mutates the stored history (300 sessions × 4 calls)', async () => {
    const fired = new Map<string, number>();
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const settings = randomSettings(r);
      let messages: Message[] = randomHistory(r, 14, 45_000);
      let state: ContextState = { ...emptyContextState(), cacheReads: r() < 0.5 ? { previous: int(r, 0, 90_000), last: int(r, 0, 90_000) } : { previous: null, last: null } };
      for (let call = 0; call < 4; call++) {
        const snapshot = JSON.stringify(messages);
        const { events, result } = await drain(
          prepareContext({
            messages,
            system: SYSTEM,
            tools,
            state,
            settings,
            summarize: deterministicSummarizer,
            ...(r() < 0.3 ? { memory: 'remember: tabs' } : {}),
            now: call * int(r, 0, 400_000),
          }),
        );
        const where = `seed ${seed}, call ${call}`;
        expect(JSON.stringify(messages), `${where}: input mutated`).toBe(snapshot);
        expect(checkTranscript(result.request.messages), `${where}: projected request invalid`).toEqual([]);
        if (result.committed) expect(checkTranscript(result.committed), `${where}: committed history invalid`).toEqual([]);
        expect(countBreakpoints(result.request), where).toBeLessThanOrEqual(MAX_BREAKPOINTS);
        const layers = layerEvents(events);
        expect(layers.map((e) => e.layer), where).toEqual(['budget', 'snip', 'microcompact', 'collapse', 'auto_compact']);
        for (const e of layers) if (e.fired) fired.set(e.layer, (fired.get(e.layer) ?? 0) + 1);
        const committers = layers.filter((e) => e.committed);
        expect(layers.find((e) => e.layer === 'collapse')!.committed, where).toBe(false);
        expect(result.committed !== undefined, `${where}: committed iff a layer committed`).toBe(committers.length > 0);
        // The state must survive a JSON round trip (sessions are saved and replayed).
        expect(JSON.parse(JSON.stringify(result.nextState)), where).toEqual(result.nextState);
        state = result.nextState;
        messages = [...(result.committed ?? messages), ...exchange(r() < 0.5 ? [int(r, 1, 20_000)] : [int(r, 1, 500), int(r, 1, 500)])];
      }
    }
    // The generator must reach every layer, or the property says little.
    for (const name of ['budget', 'snip', 'microcompact', 'collapse', 'auto_compact']) {
      expect(fired.get(name) ?? 0, `${name} fired`).toBeGreaterThan(20);
    }
    // One long CPU-bound test (17 s at load 15, 35 s at load 20): a hang guard above the suite's 30 s.
  }, 120_000);
});
