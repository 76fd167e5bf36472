/**
 * Raw Server-Sent Events from `POST /v1/messages` → {@link ModelStreamEvent}s.
 *
 * We read the SSE frames ourselves (through the SDK's parser) instead of the SDK's typed stream
 * because that one swallows `ping` and throws on `error` frames; the UI shows pings and the loop
 * needs the error as data. Unknown event types, and blocks of types the harness does not model
 * (server tools, citations …), are skipped, as the API's versioning policy asks.
 */
import type { AssistantBlock, StopDetails, StopReason, Usage } from '../../harness/messages.ts';
import type { ModelError, ModelStreamEvent } from '../../harness/ports.ts';
import { modelErrorFromStreamEvent, streamCutError } from '../errors.ts';

type Json = Record<string, unknown>;

const USAGE_KEYS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Keeps only the numeric usage fields we model (the API sends nulls and extra fields). */
export function pickUsage(raw: unknown): Partial<Usage> {
  const out: Partial<Usage> = {};
  if (!isObject(raw)) return out;
  for (const k of USAGE_KEYS) {
    const v = raw[k];
    if (typeof v === 'number') out[k] = v;
  }
  return out;
}

function toBlock(raw: unknown): AssistantBlock | null {
  if (!isObject(raw)) return null;
  switch (raw.type) {
    case 'text':
      return { type: 'text', text: str(raw.text) };
    case 'thinking':
      return { type: 'thinking', thinking: str(raw.thinking), signature: str(raw.signature) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(raw.data) };
    case 'tool_use':
      return { type: 'tool_use', id: str(raw.id), name: str(raw.name), input: isObject(raw.input) ? raw.input : {} };
    default:
      return null;
  }
}

type Delta = Extract<ModelStreamEvent, { type: 'content_block_delta' }>['delta'];

function toDelta(raw: unknown): Delta | null {
  if (!isObject(raw)) return null;
  switch (raw.type) {
    case 'text_delta':
      return { type: 'text_delta', text: str(raw.text) };
    case 'input_json_delta':
      return { type: 'input_json_delta', partial_json: str(raw.partial_json) };
    case 'thinking_delta':
      return { type: 'thinking_delta', thinking: str(raw.thinking) };
    case 'signature_delta':
      return { type: 'signature_delta', signature: str(raw.signature) };
    default:
      return null;
  }
}

export type MappedFrame = { event: ModelStreamEvent } | { error: ModelError } | null;

/**
 * Maps one stream's frames. Stateful: it remembers which block indices it passed on, so deltas
 * of a skipped block are skipped too.
 */
export class SseEventMapper {
  private readonly known = new Set<number>();

  map(frame: { event: string | null; data: string }): MappedFrame {
    if (frame.event === 'ping') return { event: { type: 'ping' } };
    let data: unknown;
    try {
      data = frame.data === '' ? null : JSON.parse(frame.data);
    } catch {
      return { error: streamCutError(`the server sent an event that is not JSON: ${frame.data.slice(0, 120)}`) };
    }
    if (frame.event === 'error') {
      const err = isObject(data) && isObject(data.error) ? data.error : {};
      return { error: modelErrorFromStreamEvent(str(err.type) || null, str(err.message) || frame.data.slice(0, 200)) };
    }
    if (!isObject(data)) return null;
    const type = data.type ?? frame.event;
    const index = typeof data.index === 'number' ? data.index : -1;
    switch (type) {
      case 'message_start': {
        const m = isObject(data.message) ? data.message : {};
        return { event: { type: 'message_start', message: { id: str(m.id), model: str(m.model), usage: pickUsage(m.usage) } } };
      }
      case 'content_block_start': {
        const block = toBlock(data.content_block);
        if (!block) return null;
        this.known.add(index);
        return { event: { type: 'content_block_start', index, content_block: block } };
      }
      case 'content_block_delta': {
        const delta = toDelta(data.delta);
        if (!delta || !this.known.has(index)) return null;
        return { event: { type: 'content_block_delta', index, delta } };
      }
      case 'content_block_stop':
        return this.known.has(index) ? { event: { type: 'content_block_stop', index } } : null;
      case 'message_delta': {
        const d = isObject(data.delta) ? data.delta : {};
        const stop = typeof d.stop_reason === 'string' ? (d.stop_reason as StopReason) : null;
        const details = toStopDetails(d.stop_details);
        return { event: { type: 'message_delta', delta: { stop_reason: stop, ...(details ? { stop_details: details } : {}) }, usage: pickUsage(data.usage) } };
      }
      case 'message_stop':
        return { event: { type: 'message_stop' } };
      case 'ping':
        return { event: { type: 'ping' } };
      default:
        return null;
    }
  }
}

/** `stop_details` as the API sends it (`{type: "refusal", category, explanation}`); anything else is dropped. */
function toStopDetails(raw: unknown): StopDetails | null {
  if (!isObject(raw) || raw.type !== 'refusal') return null;
  return {
    type: 'refusal',
    category: typeof raw.category === 'string' ? raw.category : null,
    explanation: typeof raw.explanation === 'string' ? raw.explanation : null,
  };
}
