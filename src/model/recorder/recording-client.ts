/**
 * `createRecordingClient(inner)`: a `ModelClient` that passes every call through to `inner`
 * untouched (same events, same timing) and writes down each reply as a `ScriptedTurn` — text,
 * thinking, tool calls with the exact ids the model gave, stop reason, usage — so the run can be
 * played again by the scripted client, with no key and no network.
 *
 * A failed call is recorded as the `fault` that makes the scripted client fail the same way:
 * an HTTP error as `http` (status, retry-after), a stream cut short as `truncate`, a mid-stream
 * `error` event as `stream_error`, a call the user aborted as `stall` (the replay waits, as the
 * live call did, until the person stops it). Thinking signatures and redacted thinking cannot be
 * replayed and are left out.
 *
 * Each tool call's result is kept too, from the next request that carries it (as the model saw
 * it, head only when long: `recorded-results.ts`), so a replay can tell when a tool no longer
 * returns what the recording saw.
 */
import type { Clock, ModelClient, ModelError, ModelStreamEvent } from '../../harness/ports.ts';
import type { ModelRequest, StopReason, Usage } from '../../harness/messages.ts';
import { redactDeep } from '../../harness/session/light.ts';
import type { ScriptedBlock, ScriptedFault, ScriptedTurn } from '../scripted/script.ts';
import { resultsById, toRecordedResult } from '../scripted/recorded-results.ts';

export type Recording = {
  turns: ScriptedTurn[];
  /** The model id of the first call (what the request asked for). */
  modelId: string | null;
  /** ISO time of the first call, from the injected clock. */
  recordedAt: string | null;
};

export type RecordingClient = ModelClient & {
  /** A copy of what was recorded so far (calls still streaming are not in it yet). */
  recording(): Recording;
};

export type RecordingOptions = {
  clock?: Clock;
  /** Strings removed from the recording wherever they appear (the API key in use). */
  secrets?: readonly string[];
};

type Slot =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string }
  | { kind: 'tool_use'; id: string; name: string; json: string }
  | { kind: 'skip' };

/** The HTTP status the scripted client needs to reproduce an error that came without one. */
const STATUS_OF: Partial<Record<ModelError['kind'], number>> = {
  rate_limit: 429,
  overloaded: 529,
  server: 500,
  authentication: 401,
  permission: 403,
  not_found: 404,
  prompt_too_long: 400,
  invalid_request: 400,
  unknown: 500,
};

export function createRecordingClient(inner: ModelClient, opts: RecordingOptions = {}): RecordingClient {
  // A slot is reserved when a call starts, so turns stay in call order even if calls overlap.
  const turns: (ScriptedTurn | null)[] = [];
  let modelId: string | null = null;
  let recordedAt: string | null = null;

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    modelId ??= request.model;
    recordedAt ??= new Date(opts.clock ? opts.clock.now() : Date.now()).toISOString();
    keepResults(turns, request, opts.secrets);
    const call = new CallRecorder();
    const slot = turns.push(null) - 1;
    try {
      for await (const event of inner.stream(request, signal)) {
        call.add(event);
        yield event;
      }
    } finally {
      // A consumer that stops reading mid-stream left the call unfinished: that is an abort.
      turns[slot] = redactDeep(call.toTurn(), opts.secrets);
    }
  }

  return {
    name: `${inner.name} (recording)`,
    stream,
    ...(inner.countTokens ? { countTokens: inner.countTokens.bind(inner) } : {}),
    recording: () => structuredClone({ turns: turns.filter((t): t is ScriptedTurn => t !== null), modelId, recordedAt }),
  };
}

/** Gives each recorded call still without a result the one this request carries for it. */
function keepResults(turns: readonly (ScriptedTurn | null)[], request: ModelRequest, secrets?: readonly string[]): void {
  const results = resultsById(request.messages);
  if (results.size === 0) return;
  for (const turn of turns) {
    for (const b of turn?.content ?? []) {
      if ((b.type !== 'tool_use' && b.type !== 'tool_use_raw') || b.result || !b.id) continue;
      const r = results.get(b.id);
      if (r) b.result = redactDeep(toRecordedResult(r.content, r.isError), secrets);
    }
  }
}

/** Builds one `ScriptedTurn` out of one call's events. */
class CallRecorder {
  private readonly slots = new Map<number, Slot>();
  private stopReason: StopReason | null = null;
  private usage: Partial<Usage> = {};
  private events = 0;
  private stopped = false;
  private error: ModelError | null = null;
  private eventsBeforeError = 0;

  add(event: ModelStreamEvent): void {
    if (event.type === 'error') {
      this.error = event.error;
      this.eventsBeforeError = this.events;
      return;
    }
    this.events += 1;
    switch (event.type) {
      case 'message_start':
        this.usage = { ...definedNumbers(event.message.usage) };
        break;
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') this.slots.set(event.index, { kind: 'text', text: b.text });
        else if (b.type === 'thinking') this.slots.set(event.index, { kind: 'thinking', thinking: b.thinking });
        else if (b.type === 'tool_use') this.slots.set(event.index, { kind: 'tool_use', id: b.id, name: b.name, json: '' });
        else this.slots.set(event.index, { kind: 'skip' });
        break;
      }
      case 'content_block_delta': {
        const s = this.slots.get(event.index);
        const d = event.delta;
        if (s?.kind === 'text' && d.type === 'text_delta') s.text += d.text;
        else if (s?.kind === 'thinking' && d.type === 'thinking_delta') s.thinking += d.thinking;
        else if (s?.kind === 'tool_use' && d.type === 'input_json_delta') s.json += d.partial_json;
        break;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        this.usage = { ...this.usage, ...definedNumbers(event.usage) };
        break;
      case 'message_stop':
        this.stopped = true;
        break;
      default:
        break;
    }
  }

  toTurn(): ScriptedTurn {
    const content = this.content();
    const fault = this.fault();
    const usage = Object.keys(this.usage).length > 0 ? { usage: this.usage } : {};
    if (fault) return { content, ...(fault.kind === 'http' ? {} : usage), fault };
    return { content, ...(this.stopReason ? { stop_reason: this.stopReason as NonNullable<ScriptedTurn['stop_reason']> } : {}), ...usage };
  }

  private content(): ScriptedBlock[] {
    const out: ScriptedBlock[] = [];
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const s = this.slots.get(index)!;
      if (s.kind === 'text') out.push({ type: 'text', text: s.text });
      else if (s.kind === 'thinking') out.push({ type: 'thinking', thinking: s.thinking });
      else if (s.kind === 'tool_use') out.push(toolBlock(s));
    }
    return out;
  }

  private fault(): ScriptedFault | null {
    const e = this.error;
    if (!e) {
      // message_stop seen: complete, even if the consumer stopped reading right after it.
      if (this.stopped) return null;
      // Ended without message_stop and without an error: only a consumer walking away does that.
      return { kind: 'stall', afterEvents: this.events };
    }
    const after = this.eventsBeforeError;
    if (e.kind === 'aborted') return { kind: 'stall', afterEvents: after };
    if (after === 0 && e.kind !== 'stream_cut' && e.kind !== 'connection') {
      return {
        kind: 'http',
        status: e.status ?? STATUS_OF[e.kind] ?? 500,
        message: e.kind === 'prompt_too_long' ? 'prompt is too long' : e.message,
        ...(e.retryAfterMs !== undefined ? { retryAfterSeconds: e.retryAfterMs / 1000 } : {}),
      };
    }
    const errorType = /error event \(([a-z_]+):/.exec(e.message)?.[1];
    if (errorType) return { kind: 'stream_error', afterEvents: after, errorType };
    return { kind: 'truncate', afterEvents: after };
  }
}

function toolBlock(s: Extract<Slot, { kind: 'tool_use' }>): ScriptedBlock {
  const raw = s.json.trim();
  if (raw === '') return { type: 'tool_use', id: s.id, name: s.name, input: {} };
  try {
    const input: unknown = JSON.parse(raw);
    if (input && typeof input === 'object' && !Array.isArray(input)) {
      return { type: 'tool_use', id: s.id, name: s.name, input: input as Record<string, unknown> };
    }
  } catch {
    // Not JSON: replay it byte for byte so the loop's recovery runs again.
  }
  return { type: 'tool_use_raw', id: s.id, name: s.name, partial_json: s.json };
}

function definedNumbers(u: Partial<Usage>): Partial<Usage> {
  const out: Partial<Usage> = {};
  for (const [k, v] of Object.entries(u)) if (typeof v === 'number') out[k as keyof Usage] = v;
  return out;
}
