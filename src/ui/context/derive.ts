/**
 * The context view's reading of the event log: one {@link PipelineCall} per run of the context
 * pipeline (its five `compaction.layer` events and `context.assembled`), with the model request it
 * led to and that call's `cache.stats`. Pure, so the Svelte components only render.
 */
import type { EventOf, TraceEvent } from '../../harness/index.ts';

export type LayerEvent = EventOf<'compaction.layer'>;
export type AssembledEvent = EventOf<'context.assembled'>;
export type CacheEvent = EventOf<'cache.stats'>;

/** One run of the context pipeline, before one model call (or a reactive compact). */
export type PipelineCall = {
  /** 0-based, in the order of the log. */
  index: number;
  turn: number;
  agentId: string;
  /** Which run of the session (follow-up prompts start a new one), 1-based. */
  run: number;
  layers: LayerEvent[];
  assembled?: AssembledEvent;
  /** The request the pipeline's output went into; absent for a reactive compact or a call in flight. */
  request?: EventOf<'model.request'>;
  cache?: CacheEvent;
  rewritten?: EventOf<'history.rewritten'>;
  /** A compact forced by "prompt is too long" (no request of its own follows). */
  reactive: boolean;
};

/** The pipeline runs of the main agent, in order. */
export function derivePipelineCalls(events: readonly TraceEvent[], agentId = 'main'): PipelineCall[] {
  const calls: PipelineCall[] = [];
  let run = 0;
  let open: PipelineCall | null = null;
  /** The call whose request was sent last: `cache.stats` after its response belongs to it. */
  let sent: PipelineCall | null = null;
  for (const e of events) {
    if (e.agentId !== agentId) continue;
    switch (e.type) {
      case 'run.start':
        run++;
        open = null;
        sent = null;
        break;
      case 'compaction.layer':
        // Budget is always the first layer: it opens a new pipeline run.
        if (!open || e.layer === 'budget' || open.assembled) {
          open = { index: calls.length, turn: e.turn, agentId, run: Math.max(run, 1), layers: [], reactive: false };
          calls.push(open);
        }
        open.layers.push(e);
        break;
      case 'context.assembled':
        if (!open || open.assembled) {
          // A log from before the layers existed: the assembly alone still draws the bar.
          open = { index: calls.length, turn: e.turn, agentId, run: Math.max(run, 1), layers: [], reactive: false };
          calls.push(open);
        }
        open.assembled = e;
        break;
      case 'history.rewritten':
        if (open) open.rewritten = e;
        break;
      case 'model.request':
        if (open && !open.request) {
          open.request = e;
          sent = open;
        }
        open = null;
        break;
      case 'transition':
        if (e.reason === 'reactive_compact_retry' && open) {
          open.reactive = true;
          open = null;
        }
        break;
      case 'cache.stats':
        if (sent && !sent.cache) sent.cache = e;
        break;
      default:
        break;
    }
  }
  return calls;
}

/** The newest `context.assembled` of the main agent. */
export function latestAssembled(events: readonly TraceEvent[], agentId = 'main'): AssembledEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'context.assembled' && e.agentId === agentId) return e;
  }
  return undefined;
}

/** A short label for a call in selectors and axes: "turn 3", "turn 3 · retry 2", "turn 3 · compact". */
export function callLabel(c: PipelineCall): string {
  const run = c.run > 1 ? `run ${c.run} · ` : '';
  if (c.reactive) return `${run}turn ${c.turn} · reactive compact`;
  const attempt = c.request && c.request.attempt > 1 ? ` · attempt ${c.request.attempt}` : '';
  return `${run}turn ${c.turn}${attempt}`;
}

/** Layer names as people read them. */
export const LAYER_LABELS: Record<LayerEvent['layer'], string> = {
  budget: 'Budget reduction',
  snip: 'Snip',
  microcompact: 'Microcompact',
  collapse: 'Context collapse',
  auto_compact: 'Auto-compact',
};

export const LAYER_ORDER: readonly LayerEvent['layer'][] = ['budget', 'snip', 'microcompact', 'collapse', 'auto_compact'];

/** Relative input price of cache reads, cache writes and plain input (REFERENCE.md, Prompt caching). */
export const PRICE = { read: 0.1, creation: 1.25, uncached: 1 } as const;

/** Input cost of one call in "uncached-token equivalents". */
export function inputCost(c: { read: number; creation: number; uncached: number }): number {
  return c.read * PRICE.read + c.creation * PRICE.creation + c.uncached * PRICE.uncached;
}
