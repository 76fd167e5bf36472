/**
 * Trace events of model calls: the request, its streamed deltas, the reply, errors and retries,
 * a replay that stopped matching its recording, and the money side (a fallback model, the run's
 * dollar ceiling). Joined into `TraceEvent` in `../trace.ts`.
 */
import type { Message, ModelRequest, StopDetails, StopReason, Usage } from '../messages.ts';
import type { ModelError, ReplayDivergence } from '../leaf-types.ts';

/** Model calls, and the budget that gates them. */
export type ModelEventBody =
  | { type: 'model.request'; request: ModelRequest; attempt: number }
  | {
      type: 'model.delta';
      index: number;
      delta:
        | { kind: 'text'; text: string }
        | { kind: 'input_json'; partial_json: string }
        | { kind: 'thinking'; text: string };
    }
  | {
      type: 'model.response';
      stopReason: StopReason | null;
      /** The API's `stop_details` when it sent one (a refusal's category and explanation). */
      stopDetails?: StopDetails;
      usage: Usage;
      /** Usage summed over the whole run so far. */
      totalUsage: Usage;
      message: Message;
      ms: number;
    }
  | ({
      /**
       * Replays: a tool result in this request is not what the recording saw (`ModelClient.replayCheck`),
       * so the recorded replies from here on answer another reality. One event per differing call;
       * the first in a log is where the replay stopped matching.
       */
      type: 'replay.diverged';
    } & ReplayDivergence)
  | {
      type: 'model.error';
      error: ModelError;
      attempt: number;
      /** Milliseconds before the next attempt, when one will be made. */
      retryInMs?: number;
    }
  // money (see src/harness/cost/README.md)
  | {
      /**
       * The model failed in a way another model may not (overloaded after the retry budget, or not
       * found): the run goes on with the fallback, as Claude Code's `--fallback-model`.
       */
      type: 'model.fallback';
      from: string;
      to: string;
      error: ModelError;
    }
  | {
      /**
       * The run's dollar ceiling: spent so far plus the next call's estimate (its input tokens at
       * the uncached rate) would cross it, so the run stops before making the call.
       */
      type: 'budget.exceeded';
      maxUsd: number;
      spentUsd: number;
      nextEstimateUsd: number;
      nextInputTokens: number;
      model: string;
    };
