/**
 * A model that replays authored or recorded turns: one turn per `stream()` call, streamed as the
 * API would stream it (see `to-events.ts`), including injected faults. Needs no key and no
 * network, so scenarios replay anywhere and tests are exact.
 */
import type { ModelRequest } from '../../harness/messages.ts';
import type { Clock, ModelClient, ModelStreamEvent } from '../../harness/ports.ts';
import { abortedError, ModelCallError, streamCutError } from '../errors.ts';
import type { ScriptedTurn } from './script.ts';
import { emptyCacheSim, simulateCacheUsage, type CacheSimState } from '../../harness/context/light.ts';
import { estimateRequestTokens, outOfTurnsError, parseTurn, planTurn, scriptedToolIds, type TurnPlan } from './to-events.ts';
import { checkResults, type PendingResult } from './recorded-results.ts';

export type ScriptedClientOptions = {
  /** Pause between events, for a realistic pace in the UI. Default 0 (tests). */
  chunkDelayMs?: number;
  /** Required for a non-zero `chunkDelayMs`; a FakeClock makes pacing instant in tests. */
  clock?: Clock;
  /** Label for the UI and traces; default `scripted`. */
  name?: string;
  /**
   * Report input usage as the API would with prompt caching (reads and writes at the request's
   * `cache_control` breakpoints), from the cache simulator, when a turn gives no usage of its own.
   * Default false: all input counted as uncached.
   */
  simulateCache?: boolean;
  /** Ids for tool calls the script left without one; default `toolu_scripted_1`, `_2`, … */
  toolIds?: () => string;
  /** Generated tool ids start after this number (`toolu_scripted_<n+1>`); default 0. */
  toolIdStart?: number;
};

export type ScriptedClient = ModelClient & {
  /** Every request received, in order (what the model "saw"). */
  readonly requests: readonly ModelRequest[];
  /** How many turns remain unplayed. */
  remaining(): number;
};

/** Resolves when `signal` fires; never rejects. */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Creates a client over `turns`. The turns are validated now, so a malformed script fails at
 * load time with a zod error rather than mid-run.
 */
export function createScriptedClient(turns: readonly ScriptedTurn[], opts: ScriptedClientOptions = {}): ScriptedClient {
  turns.forEach((t) => parseTurn(t));
  const delayMs = opts.chunkDelayMs ?? 0;
  if (delayMs > 0 && !opts.clock) throw new Error('createScriptedClient: chunkDelayMs needs a clock');
  const requests: ModelRequest[] = [];
  const nextToolId = opts.toolIds ?? scriptedToolIds(opts.toolIdStart ?? 0);
  let calls = 0;
  let cacheSim: CacheSimState = emptyCacheSim();
  // Calls played whose turn carries the recording's result, by the id they were given.
  const pending = new Map<string, PendingResult>();

  /** Remembers what the recording saw for each call a complete turn makes. */
  function expectResults(turn: ScriptedTurn, plan: TurnPlan, callNumber: number): void {
    if (plan.kind !== 'stream' || plan.ending.kind !== 'complete') return;
    for (const e of plan.events) {
      if (e.type !== 'content_block_start' || e.content_block.type !== 'tool_use') continue;
      const block = turn.content?.[e.index];
      if ((block?.type === 'tool_use' || block?.type === 'tool_use_raw') && block.result) {
        pending.set(e.content_block.id, { name: block.name, recordedTurn: callNumber, recorded: block.result });
      }
    }
  }

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const callNumber = ++calls;
    requests.push(request);
    if (signal.aborted) {
      yield { type: 'error', error: abortedError() };
      return;
    }
    const turn = turns[callNumber - 1];
    if (turn === undefined) {
      yield { type: 'error', error: outOfTurnsError(callNumber, turns.length) };
      return;
    }
    let inputUsage: Parameters<typeof planTurn>[1]['inputUsage'];
    if (opts.simulateCache) {
      const sim = simulateCacheUsage(cacheSim, request);
      cacheSim = sim.next;
      inputUsage = sim.usage;
    }
    const plan = planTurn(turn, { request, callNumber, nextToolId, ...(inputUsage ? { inputUsage } : {}) });
    expectResults(turn, plan, callNumber);
    if (plan.kind === 'http') {
      yield { type: 'error', error: plan.error };
      return;
    }
    for (const event of plan.events) {
      if (delayMs > 0 && opts.clock) {
        try {
          await opts.clock.sleep(delayMs, signal);
        } catch {
          // The clock rejects only on abort; the check below reports it.
        }
      }
      if (signal.aborted) {
        yield { type: 'error', error: abortedError() };
        return;
      }
      yield event;
    }
    const ending = plan.ending;
    if (ending.kind === 'complete') return;
    if (ending.kind === 'stall') await untilAborted(signal);
    if (signal.aborted) {
      yield { type: 'error', error: abortedError() };
      return;
    }
    if (ending.kind === 'truncate') yield { type: 'error', error: streamCutError('the connection closed early') };
    else if (ending.kind === 'stream_error') yield { type: 'error', error: ending.error };
  }

  return {
    name: opts.name ?? 'scripted',
    requests,
    remaining: () => Math.max(0, turns.length - calls),
    stream,
    replayCheck: (request: ModelRequest) => (pending.size === 0 ? [] : checkResults(pending, request.messages)),
    async countTokens(request: ModelRequest, signal?: AbortSignal): Promise<number> {
      if (signal?.aborted) throw new ModelCallError(abortedError());
      return estimateRequestTokens(request);
    },
  };
}
