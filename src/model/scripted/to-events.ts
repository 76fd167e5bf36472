/**
 * Turns one scripted turn into the exact stream a Messages API would send for it. The scripted
 * client yields these events in-process; the fake Anthropic server writes the same events as SSE.
 * Both call this one function, so a scenario plays identically against either.
 *
 * Pure and deterministic: the same turn, request and id sequence give the same events.
 */
import type { ModelRequest, StopReason, Usage } from '../../harness/messages.ts';
import type { ModelError, ModelStreamEvent } from '../../harness/ports.ts';
import { defaultErrorBody, modelErrorFromHttp, modelErrorFromStreamEvent } from '../errors.ts';
import { scriptedTurnSchema, type ParsedScriptedTurn, type ScriptedBlock, type ScriptedTurn } from './script.ts';

export type TurnContext = {
  request: ModelRequest;
  /** 1-based number of this model call; names the message id. */
  callNumber: number;
  /** Supplies ids for tool calls the script left without one. */
  nextToolId: () => string;
  /** Input usage to report when the turn gives none (e.g. from the cache simulator). */
  inputUsage?: Pick<Usage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>;
};

/** How the stream ends after its `events`. */
export type StreamEnding =
  | { kind: 'complete' }
  /** The connection closes early: the events stop before `message_stop`. */
  | { kind: 'truncate' }
  /** The connection stays open and silent until the caller gives up. */
  | { kind: 'stall' }
  /** An SSE `error` event follows the events. */
  | { kind: 'stream_error'; errorType: string; message: string; error: ModelError };

export type TurnPlan =
  | {
      kind: 'http';
      status: number;
      /** Anthropic's error body. */
      body: { type: 'error'; error: { type: string; message: string } };
      retryAfterSeconds?: number;
      /** What a client makes of this response. */
      error: ModelError;
    }
  | { kind: 'stream'; events: ModelStreamEvent[]; ending: StreamEnding };

const WORDS_PER_CHUNK = 3;

/** Rough token count of a request, ≈ one token per four characters of its JSON. */
export function estimateRequestTokens(request: Pick<ModelRequest, 'system' | 'tools' | 'messages'>): number {
  const size = JSON.stringify({ system: request.system ?? null, tools: request.tools ?? [], messages: request.messages }).length;
  return Math.max(1, Math.ceil(size / 4));
}

/** Splits text into chunks of a few words; the chunks concatenate back to the text exactly. */
export function chunkText(text: string, wordsPerChunk = WORDS_PER_CHUNK): string[] {
  const words = text.match(/\s*\S+\s*/g);
  if (!words) return text === '' ? [] : [text];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

/** Splits JSON text into several pieces (by code point, so no surrogate pair is split). */
export function chunkJson(json: string): string[] {
  const chars = Array.from(json);
  if (chars.length === 0) return [];
  // Small inputs still arrive in several pieces; big ones in at most ~40, as the API roughly does.
  const size = Math.max(12, Math.ceil(chars.length / 40));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

function hasToolCall(turn: ParsedScriptedTurn): boolean {
  return turn.content.some((b) => b.type === 'tool_use' || b.type === 'tool_use_raw');
}

function replyChars(content: ScriptedBlock[]): number {
  let n = 0;
  for (const b of content) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'thinking') n += b.thinking.length;
    else if (b.type === 'tool_use') n += b.name.length + JSON.stringify(b.input).length;
    else n += b.name.length + b.partial_json.length;
  }
  return n;
}

function blockEvents(block: ScriptedBlock, index: number, ctx: TurnContext): ModelStreamEvent[] {
  const out: ModelStreamEvent[] = [];
  const delta = (d: Extract<ModelStreamEvent, { type: 'content_block_delta' }>['delta']) =>
    out.push({ type: 'content_block_delta', index, delta: d });
  switch (block.type) {
    case 'text':
      out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of chunkText(block.text)) delta({ type: 'text_delta', text });
      break;
    case 'thinking':
      out.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of chunkText(block.thinking)) delta({ type: 'thinking_delta', thinking });
      delta({ type: 'signature_delta', signature: `scripted_signature_${ctx.callNumber}_${index}` });
      break;
    case 'tool_use':
    case 'tool_use_raw': {
      const id = block.id ?? ctx.nextToolId();
      out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: block.name, input: {} } });
      const json = block.type === 'tool_use' ? JSON.stringify(block.input) : block.partial_json;
      for (const partial_json of chunkJson(json)) delta({ type: 'input_json_delta', partial_json });
      break;
    }
  }
  out.push({ type: 'content_block_stop', index });
  return out;
}

/** Validates a turn (applying the schema's defaults); throws a zod error on a malformed script. */
export function parseTurn(turn: ScriptedTurn): ParsedScriptedTurn {
  return scriptedTurnSchema.parse(turn);
}

/**
 * The full plan for one turn: either an HTTP error, or the stream of events and how it ends.
 * Tool ids are drawn from `ctx.nextToolId` only for a turn that streams.
 */
export function planTurn(input: ScriptedTurn, ctx: TurnContext): TurnPlan {
  const turn = parseTurn(input);
  const fault = turn.fault;
  if (fault?.kind === 'http') {
    const defaults = defaultErrorBody(fault.status);
    const type = fault.errorType ?? defaults.type;
    const message = fault.message ?? defaults.message;
    return {
      kind: 'http',
      status: fault.status,
      body: { type: 'error', error: { type, message } },
      ...(fault.retryAfterSeconds !== undefined ? { retryAfterSeconds: fault.retryAfterSeconds } : {}),
      error: modelErrorFromHttp({
        status: fault.status,
        errorType: type,
        message,
        model: ctx.request.model,
        ...(fault.retryAfterSeconds !== undefined ? { retryAfterMs: fault.retryAfterSeconds * 1000 } : {}),
      }),
    };
  }

  const usage: Partial<Usage> = turn.usage ?? {};
  const stopReason: StopReason = turn.stop_reason ?? (hasToolCall(turn) ? 'tool_use' : 'end_turn');
  const events: ModelStreamEvent[] = [
    {
      type: 'message_start',
      message: {
        id: `msg_scripted_${ctx.callNumber}`,
        model: ctx.request.model,
        usage: {
          input_tokens: usage.input_tokens ?? ctx.inputUsage?.input_tokens ?? estimateRequestTokens(ctx.request),
          output_tokens: 1,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? ctx.inputUsage?.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? ctx.inputUsage?.cache_read_input_tokens ?? 0,
        },
      },
    },
  ];
  turn.content.forEach((block, index) => {
    const evs = blockEvents(block, index, ctx);
    // The API sends its first ping right after the first block opens.
    if (index === 0) evs.splice(1, 0, { type: 'ping' });
    events.push(...evs);
  });
  if (turn.content.length === 0) events.push({ type: 'ping' });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, ...(turn.stop_details ? { stop_details: turn.stop_details } : {}) },
      usage: { output_tokens: usage.output_tokens ?? Math.max(1, Math.ceil(replyChars(turn.content) / 4)) },
    },
    { type: 'message_stop' },
  );

  if (!fault) return { kind: 'stream', events, ending: { kind: 'complete' } };
  // A fault always lands before message_stop, or it would not be a fault.
  const cut = Math.min(fault.afterEvents, events.length - 1);
  const head = events.slice(0, cut);
  if (fault.kind === 'truncate') return { kind: 'stream', events: head, ending: { kind: 'truncate' } };
  if (fault.kind === 'stall') return { kind: 'stream', events: head, ending: { kind: 'stall' } };
  const errorType = fault.errorType ?? 'overloaded_error';
  const message = fault.message ?? 'Overloaded';
  return {
    kind: 'stream',
    events: head,
    ending: { kind: 'stream_error', errorType, message, error: modelErrorFromStreamEvent(errorType, message) },
  };
}

/** The error for a call past the end of the script. */
export function outOfTurnsError(callNumber: number, available: number): ModelError {
  return {
    kind: 'invalid_request',
    retryable: false,
    message: `The scripted model has no turn ${callNumber}: the scenario's script has only ${available} turn${available === 1 ? '' : 's'}. Add turns to the script, or end the run sooner.`,
  };
}

/**
 * Deterministic ids for tool calls the script left without one: `toolu_scripted_1`, `_2`, …,
 * after `start` (a client that resumes a session's script continues its numbering, so ids stay
 * unique in the session).
 */
export function scriptedToolIds(start = 0): () => string {
  let n = start;
  return () => `toolu_scripted_${++n}`;
}
