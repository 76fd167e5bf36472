/**
 * What the headless runner prints, in the three formats `claude -p` has:
 * - `text`: the assistant's final answer on stdout; on stderr one short line per tool call,
 *   denial, error and note (so `> answer.txt` captures only the answer). Allowed decisions,
 *   hooks, transitions and per-call usage only with `--verbose`;
 * - `json`: one result object on stdout when the run ends (usage, turns, reason, cost fields);
 * - `stream-json`: every TraceEvent as one JSON line as it happens, then the result object.
 * A printer never throws and never prints the API key (the loop's events carry none).
 */
import { hookRunLabel } from '../harness/hooks/index.ts';
import type { Message, Usage } from '../harness/messages.ts';
import type { RunResult, TraceEvent } from '../harness/index.ts';
import type { OutputFormat } from './args.ts';

export type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export type ResultObject = {
  type: 'result';
  subtype: 'success' | RunResult['reason'];
  is_error: boolean;
  /** The assistant's final text. */
  result: string;
  scenario: string;
  num_turns: number;
  duration_ms: number;
  /** Time spent waiting for the model (sum over responses). */
  duration_api_ms: number;
  usage: Usage;
  cost: {
    /** uncached + 1.25 × cache writes + 0.1 × cache reads: input priced in base-input tokens. */
    weighted_input_tokens: number;
    output_tokens: number;
    /** Share of input read from the prompt cache. */
    cache_hit_rate: number;
  };
  error?: { kind: string; message: string };
  notes?: string[];
  write_back?: { written: string[]; deleted: string[] };
};

/** The text of the last assistant message (its text blocks, joined). */
export function finalText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    if (typeof m.content === 'string') return m.content;
    return m.content
      .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
      .map((b) => b.text)
      .join('\n')
      .trim();
  }
  return '';
}

export function weightedInput(u: Usage): number {
  return u.input_tokens + 1.25 * (u.cache_creation_input_tokens ?? 0) + 0.1 * (u.cache_read_input_tokens ?? 0);
}

const clip = (s: string, n = 100) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

/** A tool call in a few words: its command, path or pattern. */
export function describeInput(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const o = input as Record<string, unknown>;
  for (const k of ['command', 'file_path', 'pattern', 'path', 'url', 'description', 'prompt']) {
    if (typeof o[k] === 'string') return clip(o[k]);
  }
  return clip(JSON.stringify(input));
}

export class Printer {
  private apiMs = 0;
  private readonly started = Date.now();
  constructor(
    private readonly format: OutputFormat,
    private readonly out: Out,
    private readonly verbose = false,
  ) {}

  note(line: string): void {
    if (this.format === 'text') this.out.stderr(`note: ${line}\n`);
  }

  event(e: TraceEvent): void {
    if (e.type === 'model.response') this.apiMs += e.ms;
    if (this.format === 'stream-json') {
      this.out.stdout(JSON.stringify(e) + '\n');
      return;
    }
    if (this.format !== 'text') return;
    const line = this.verbose ? verboseLine(e) ?? textLine(e) : textLine(e);
    if (line) this.out.stderr(line + '\n');
  }

  /** The end of one run: the answer (text), or the result object (json, stream-json). */
  finish(scenario: string, r: RunResult, extra: { notes?: string[]; writeBack?: ResultObject['write_back'] } = {}): ResultObject {
    const u = r.usage;
    const input = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    const obj: ResultObject = {
      type: 'result',
      subtype: r.reason === 'completed' ? 'success' : r.reason,
      is_error: r.reason !== 'completed',
      result: finalText(r.messages),
      scenario,
      num_turns: r.turns,
      duration_ms: Date.now() - this.started,
      duration_api_ms: this.apiMs,
      usage: u,
      cost: {
        weighted_input_tokens: Math.round(weightedInput(u) * 10) / 10,
        output_tokens: u.output_tokens,
        cache_hit_rate: input === 0 ? 0 : Math.round(((u.cache_read_input_tokens ?? 0) / input) * 1000) / 1000,
      },
      ...(r.error ? { error: { kind: r.error.kind, message: r.error.message } } : {}),
      ...(extra.notes && extra.notes.length > 0 ? { notes: extra.notes } : {}),
      ...(extra.writeBack ? { write_back: extra.writeBack } : {}),
    };
    if (this.format === 'text') {
      if (obj.result) this.out.stdout(obj.result + '\n');
      if (r.reason !== 'completed') this.out.stderr(`stopped: ${r.reason}${r.error ? ` — ${r.error.message}` : ''}\n`);
      if (extra.writeBack) {
        const { written, deleted } = extra.writeBack;
        this.out.stderr(`write-back: ${written.length} file(s) written${written.length ? ` (${written.join(', ')})` : ''}, ${deleted.length} deleted${deleted.length ? ` (${deleted.join(', ')})` : ''}\n`);
      }
    } else {
      this.out.stdout(JSON.stringify(obj) + '\n');
    }
    return obj;
  }
}

/**
 * The short stderr line of an event in text mode, or null for events it leaves out: the calls
 * (one line each), what was denied and why, failed results, a replay that diverged from its recording, model errors. A final model error is
 * left to the `stopped:` line, so it is not said twice.
 */
export function textLine(e: TraceEvent): string | null {
  switch (e.type) {
    case 'tool.started':
      return `▸ ${e.name} ${describeInput(e.input)}`.trimEnd();
    case 'permission.decision':
      return e.decision === 'deny' ? `  denied: ${clip(e.reason, 120)}` : null;
    case 'tool.result':
      return e.isError ? `  ✗ ${clip(e.content, 120)}` : null;
    case 'replay.diverged':
      return `  ≠ replay diverged: ${e.name} (turn ${e.recordedTurn} of the recording) recorded ${e.expected.isError ? 'an error' : 'ok'} “${clip(e.expected.content, 50)}”, here ${e.actual.isError ? 'an error' : 'ok'} “${clip(e.actual.content, 50)}”`;
    case 'model.error':
      return e.retryInMs !== undefined ? `retrying in ${Math.round(e.retryInMs / 100) / 10} s: ${clip(e.error.message, 120)}` : null;
    // A server that cannot be used, and tools left out, say why (a failed call is its tool.result line).
    case 'mcp.error':
      return e.phase === 'call' ? null : `mcp: server "${e.server}" not used (${e.phase}): ${clip(e.message, 200)}`;
    case 'mcp.tools':
      return e.skipped.length > 0 ? e.skipped.map((s) => `mcp: server "${e.server}" tool ${s.tool} left out: ${clip(s.reason, 160)}`).join('\n') : null;
    default:
      return null;
  }
}

/** `--verbose`: the extra lines (null falls back to `textLine`). */
export function verboseLine(e: TraceEvent): string | null {
  switch (e.type) {
    case 'permission.decision':
      return `  ${e.decision === 'allow' ? 'allowed' : 'denied'} (${e.stage}: ${clip(e.reason, 160)})`;
    case 'tool.result':
      return e.isError ? null : `  ✓ ${clip(e.content, 80)}`;
    case 'model.error':
      return `error: ${e.error.message}${e.retryInMs !== undefined ? ` (retrying in ${Math.round(e.retryInMs / 100) / 10} s)` : ''}`;
    case 'model.response':
      return `· model: ${e.stopReason ?? 'no stop reason'}, ${e.usage.input_tokens} in + ${e.usage.cache_read_input_tokens ?? 0} cached + ${e.usage.cache_creation_input_tokens ?? 0} written, ${e.usage.output_tokens} out, ${e.ms} ms`;
    case 'hook.run':
      return `  hook ${e.event}${e.matcher ? ` [${e.matcher}]` : ''} ${clip(hookRunLabel(e.hook), 60)}: exit ${e.exitCode}${e.timedOut ? ' (timed out)' : ''}${e.decision && e.decision !== 'none' ? `, ${e.decision}` : ''}`;
    case 'transition':
      return `→ ${e.reason}${e.detail ? `: ${clip(e.detail, 120)}` : ''}`;
    default:
      return null;
  }
}
