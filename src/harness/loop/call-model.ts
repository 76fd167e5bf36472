/**
 * One model call: streams the reply, yields each delta as a trace event body, and returns the
 * assembled message or the error that ended the stream. Never throws. A replaying client is
 * first asked whether the request's tool results still match its recording (`replay.diverged`).
 */
import type { AssistantBlock, ModelRequest, StopDetails, StopReason, Usage } from '../messages.ts';
import type { ModelClient, ModelError } from '../ports.ts';
import type { TraceEventBody } from '../trace.ts';
import { StreamAccumulator, type MalformedToolUse } from './stream-accumulator.ts';

export type ModelCallOutcome =
  | {
      ok: true;
      blocks: AssistantBlock[];
      stopReason: StopReason | null;
      /** The API's `stop_details` (a refusal's category and explanation), when sent. */
      stopDetails?: StopDetails;
      usage: Usage;
      malformed: MalformedToolUse[];
    }
  | {
      ok: false;
      error: ModelError;
      /** What had streamed before the failure (complete blocks only). */
      partial: AssistantBlock[];
      usage: Usage;
    };

export async function* callModel(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<TraceEventBody, ModelCallOutcome> {
  const acc = new StreamAccumulator();
  for (const d of client.replayCheck?.(request) ?? []) yield { type: 'replay.diverged', ...d };
  try {
    for await (const event of client.stream(request, signal)) {
      if (event.type === 'error') {
        return { ok: false, error: event.error, partial: acc.blocks(), usage: acc.getUsage() };
      }
      acc.add(event);
      if (event.type === 'content_block_delta') {
        const d = event.delta;
        if (d.type === 'text_delta') yield deltaEvent(event.index, { kind: 'text', text: d.text });
        else if (d.type === 'input_json_delta')
          yield deltaEvent(event.index, { kind: 'input_json', partial_json: d.partial_json });
        else if (d.type === 'thinking_delta') yield deltaEvent(event.index, { kind: 'thinking', text: d.thinking });
      }
      if (event.type === 'message_stop') break;
    }
  } catch (e) {
    // The port promises never to throw; if an implementation does, treat it as a connection fault.
    return {
      ok: false,
      error: {
        kind: signal.aborted ? 'aborted' : 'connection',
        message: `The model client failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
        retryable: !signal.aborted,
      },
      partial: acc.blocks(),
      usage: acc.getUsage(),
    };
  }
  if (signal.aborted) {
    return {
      ok: false,
      error: { kind: 'aborted', message: 'Stopped by the user.', retryable: false },
      partial: acc.blocks(),
      usage: acc.getUsage(),
    };
  }
  if (!acc.sawMessageStop) {
    return {
      ok: false,
      error: {
        kind: 'stream_cut',
        message: 'The reply stream ended before the message was complete.',
        retryable: true,
      },
      partial: acc.blocks(),
      usage: acc.getUsage(),
    };
  }
  return {
    ok: true,
    blocks: acc.blocks(),
    stopReason: acc.getStopReason(),
    ...(acc.getStopDetails() ? { stopDetails: acc.getStopDetails()! } : {}),
    usage: acc.getUsage(),
    malformed: acc.malformed,
  };
}

function deltaEvent(
  index: number,
  delta: Extract<TraceEventBody, { type: 'model.delta' }>['delta'],
): TraceEventBody {
  return { type: 'model.delta', index, delta };
}
