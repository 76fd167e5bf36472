/**
 * Each tool call of a conversation as the page shows it, from everything the trace says about it
 * (proposed, validated, started, its output streaming, its result, a replay divergence) — part of
 * `conversation.ts`, pure like it.
 */
import type { EventOf, TraceEvent } from '../../harness/index.ts';
import { blocksOf, toolResultText } from '../../harness/messages.ts';
import type { SubagentLane } from './conversation.ts';

export type ToolCallStatus = 'composing' | 'proposed' | 'invalid' | 'running' | 'done' | 'error' | 'interrupted';

export type ToolCallView = {
  id: string;
  name: string;
  input: unknown;
  status: ToolCallStatus;
  /** Output streamed while the tool runs (stdout and stderr interleaved as they came). */
  output: string;
  result?: string;
  /** Images the result carried to the model (an MCP tool's image content), as data URLs. */
  images?: { mediaType: string; src: string }[];
  isError?: boolean;
  ms?: number;
  validationError?: string;
  /** The result was cut head + tail by the sandbox or the tool runner. */
  truncated: boolean;
  /** The input that ran instead of `input` (a PreToolUse hook rewrote it). */
  ranInput?: unknown;
  /** An `agent` call: the subagent it started, as a nested conversation. */
  lane?: SubagentLane;
  /** A replay: this call's result is not what the recording saw (`replay.diverged`). */
  divergence?: Pick<EventOf<'replay.diverged'>, 'what' | 'expected' | 'actual' | 'recordedTurn'>;
};

const TRUNCATION_MARK = /… \[[\d,]+ characters cut from the middle/;

export type ToolFacts = {
  name: string;
  input: unknown;
  validated?: { ok: boolean; error?: string };
  started: boolean;
  /** What actually ran, when a hook rewrote the proposed input. */
  ranInput?: unknown;
  /** Which run proposed it (runs are counted by `run.start`). */
  run: number;
  /** Its run ended (or the log stops) with no result for it. */
  closed?: boolean;
  output: string;
  result?: { content: string; isError: boolean; ms?: number; images?: readonly { mediaType: string; data: string }[] };
  divergence?: ToolCallView['divergence'];
};

/** Everything the trace says about each tool call, keyed by `tool_use` id. */
export function collectToolFacts(events: readonly TraceEvent[], settled: boolean): Map<string, ToolFacts> {
  const facts = new Map<string, ToolFacts>();
  let run = 0;
  const get = (id: string, name = '?', input: unknown = {}) => {
    let f = facts.get(id);
    if (!f) {
      f = { name, input, started: false, output: '', run };
      facts.set(id, f);
    }
    return f;
  };
  for (const e of events) {
    switch (e.type) {
      case 'run.start':
        run++;
        break;
      case 'run.end':
        for (const f of facts.values()) if (f.run === run && !f.result) f.closed = true;
        break;
      case 'tool.proposed':
        Object.assign(get(e.toolUseId, e.name, e.input), { name: e.name, input: e.input });
        break;
      case 'tool.validated':
        get(e.toolUseId, e.name).validated = { ok: e.ok, error: e.error };
        break;
      case 'tool.started': {
        const f = get(e.toolUseId, e.name);
        f.started = true;
        if (e.input !== undefined && JSON.stringify(e.input) !== JSON.stringify(f.input)) f.ranInput = e.input;
        break;
      }
      case 'tool.output':
        get(e.toolUseId).output += e.chunk.text;
        break;
      case 'tool.result':
        get(e.toolUseId, e.name).result = { content: e.content, isError: e.isError, ms: e.ms, ...(e.images ? { images: e.images } : {}) };
        break;
      case 'replay.diverged':
        get(e.toolUseId, e.name).divergence = { what: e.what, expected: e.expected, actual: e.actual, recordedTurn: e.recordedTurn };
        break;
      case 'message.appended':
        // Results the harness wrote itself (e.g. after an abort) arrive only as messages.
        for (const b of blocksOf(e.message)) {
          if (b.type !== 'tool_result') continue;
          const f = get(b.tool_use_id);
          if (f.result) continue;
          f.result = { content: toolResultText(b), isError: b.is_error ?? false };
        }
        break;
    }
  }
  // A log that ends mid-run with nothing left to run it (a reload, a crash): its open calls are cut off.
  if (settled) for (const f of facts.values()) if (f.run === run && !f.result) f.closed = true;
  return facts;
}

export function toolView(id: string, name: string, input: unknown, f: ToolFacts | undefined): ToolCallView {
  let status: ToolCallStatus = 'proposed';
  if (f?.result) status = f.result.isError ? 'error' : 'done';
  else if (f?.validated && !f.validated.ok) status = 'invalid';
  // Its run is over and no result came: it was cut off (a stop, a crash, a reload mid-tool).
  else if (f?.closed) status = 'interrupted';
  else if (f?.started) status = 'running';
  const result = f?.result?.content;
  return {
    id,
    name,
    input,
    status,
    output: f?.output ?? '',
    result,
    ...(f?.result?.images?.length ? { images: f.result.images.map((i) => ({ mediaType: i.mediaType, src: `data:${i.mediaType};base64,${i.data}` })) } : {}),
    isError: f?.result?.isError,
    ms: f?.result?.ms,
    validationError: f?.validated?.error,
    truncated: result !== undefined && TRUNCATION_MARK.test(result),
    ...(f?.ranInput !== undefined ? { ranInput: f.ranInput } : {}),
    ...(f?.divergence ? { divergence: f.divergence } : {}),
  };
}
