/**
 * Stepping at a coarser grain than one event: run until the next model request, tool call,
 * permission decision, or the end of the turn. Each grain is a `StopWhen` for `ctl.run`; the
 * event it names is the one the run stops after.
 */
import type { TraceEvent } from '../../harness/index.ts';

export const GRAINS = ['request', 'tool', 'decision', 'turn'] as const;
export type Grain = (typeof GRAINS)[number];

export const GRAIN_INFO: Record<Grain, { label: string; key: string; title: string; stops: (e: TraceEvent) => boolean }> = {
  request: { label: 'Request', key: 'm', title: 'Run to the next model request (M)', stops: (e) => e.type === 'model.request' },
  tool: { label: 'Tool call', key: 't', title: 'Run to the next tool call the model proposes (T)', stops: (e) => e.type === 'tool.proposed' },
  decision: { label: 'Decision', key: 'd', title: 'Run to the next permission decision (D)', stops: (e) => e.type === 'permission.decision' },
  turn: { label: 'End of turn', key: 'e', title: 'Run to the end of this turn: its transition (E)', stops: (e) => e.type === 'transition' },
};

/** The grain a key press asks for, or null. */
export function grainOfKey(key: string): Grain | null {
  return GRAINS.find((g) => GRAIN_INFO[g].key === key) ?? null;
}

/** Where a grain step from `fromLength` stops in `log` (1-based log seq), or null if not in it yet. */
export function grainStop(grain: Grain, log: readonly TraceEvent[], fromLength: number): number | null {
  const i = log.findIndex((e, idx) => idx >= fromLength && GRAIN_INFO[grain].stops(e));
  return i < 0 ? null : i + 1;
}
