/**
 * A model client for a fork whose first reply is already decided (an edited tool call): the first
 * call streams that turn (through the scripted player, so it looks like any reply), every later
 * call goes to `inner` — the scripted client that was playing (its script continues where it was)
 * or the live model.
 */
import type { Clock, ModelClient, ModelStreamEvent } from '../../harness/ports.ts';
import type { ModelRequest } from '../../harness/messages.ts';
import { createScriptedClient } from '../../model/scripted/client.ts';
import type { ScriptedTurn } from '../../model/scripted/script.ts';

export type ReplayFirstClient = ModelClient & { remaining(): number };

export function replayFirst(turn: ScriptedTurn, inner: ModelClient, opts: { clock?: Clock; chunkDelayMs?: number } = {}): ReplayFirstClient {
  const first = createScriptedClient([turn], {
    name: inner.name,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.clock && opts.chunkDelayMs ? { chunkDelayMs: opts.chunkDelayMs } : {}),
  });
  let played = false;
  const innerRemaining = () => {
    const r = (inner as { remaining?: () => number }).remaining;
    // A live model never runs out.
    return typeof r === 'function' ? r.call(inner) : Number.POSITIVE_INFINITY;
  };
  return {
    name: inner.name,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      if (played) return inner.stream(request, signal);
      played = true;
      return first.stream(request, signal);
    },
    ...(inner.countTokens ? { countTokens: inner.countTokens.bind(inner) } : {}),
    remaining: () => (played ? 0 : 1) + innerRemaining(),
  };
}
