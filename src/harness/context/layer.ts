/**
 * What every compaction layer takes and gives back. Layers are plain functions over the stored
 * history (`messages`); none mutates its input. A layer that commits returns the new history and
 * the pipeline passes it on as the truth; collapse only projects.
 */
import type { Message } from '../messages.ts';
import type { TraceEventBody } from '../trace.ts';
import type { ContextSettings } from './settings.ts';
import type { ContextState } from './state.ts';

export type LayerEvent = Extract<TraceEventBody, { type: 'compaction.layer' }>;

export type LayerInput = {
  messages: Message[];
  state: ContextState;
  settings: ContextSettings;
  /** Estimated tokens of a whole request whose messages are these (system, tools, memory included). */
  tokensOf: (messages: readonly Message[]) => number;
};

export type LayerOutput = {
  messages: Message[];
  state: ContextState;
  event: LayerEvent;
  /**
   * Index of the first stored message the layer changed, when it committed a change; the cached
   * prefix survives only before it.
   */
  firstChanged?: number;
};

export function layerEvent(
  layer: LayerEvent['layer'],
  fields: Omit<LayerEvent, 'type' | 'layer'>,
): LayerEvent {
  return { type: 'compaction.layer', layer, ...fields };
}
