/**
 * The model port: `ModelClient` and the normalised Anthropic stream events it yields. Re-exported
 * by `../ports.ts`, where the harness and its callers import it from.
 */
import type { AssistantBlock, ModelRequest, StopDetails, StopReason, Usage } from '../messages.ts';
import type { ModelError, ReplayDivergence } from '../leaf-types.ts';

/**
 * The Anthropic streaming events, normalised. A stream is:
 * `message_start` → (`content_block_start` → `content_block_delta`* → `content_block_stop`)* →
 * `message_delta` → `message_stop`, with `ping` anywhere. A failure ends the stream with one `error`.
 */
export type ModelStreamEvent =
  | { type: 'message_start'; message: { id: string; model: string; usage: Partial<Usage> } }
  | { type: 'content_block_start'; index: number; content_block: AssistantBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: StopReason | null; stop_details?: StopDetails | null }; usage: Partial<Usage> }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: ModelError };

/**
 * A Messages-API-compatible model.
 *
 * Contract:
 * - `stream` never throws and never rejects: every failure (HTTP status, network, a stream cut
 *   short, an `error` event, abort) is delivered as one final `{type:'error'}` event, after
 *   which the iterable ends.
 * - A successful stream ends with `message_stop`. A stream that ends without it must be reported
 *   as `error` with kind `stream_cut` so the caller never mistakes a partial reply for a whole one.
 * - The client does not retry on its own; the loop owns retries so each one is a visible event.
 * - When `signal` fires the client stops reading and yields `error` with kind `aborted`.
 */
export interface ModelClient {
  /** A short label for the UI and traces, e.g. `scripted` or `anthropic`. */
  readonly name: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /** Exact input-token count for a request, when the backend can tell. Rejects on failure. */
  countTokens?(request: ModelRequest, signal?: AbortSignal): Promise<number>;
  /**
   * A replaying client only (scripted turns that carry recorded results): the loop calls it with
   * each request just before `stream`, and it returns the tool results in the request that differ
   * from what the recording saw for the calls it played. Each call is judged once: a retry of the
   * same request returns nothing new. Must not throw; a live model has no such method.
   */
  replayCheck?(request: ModelRequest): ReplayDivergence[];
}
