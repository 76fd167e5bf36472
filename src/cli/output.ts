/**
 * What the headless runner prints, in `claude -p`'s three formats and one of our own:
 * - `text`: the assistant's final answer on stdout; on stderr one short line per tool call,
 *   denial, error and note (so `> answer.txt` captures only the answer). Allowed decisions,
 *   hooks, transitions, per-call usage and cost, and a `/cost`-like summary only with `--verbose`;
 * - `json`: one result object on stdout when the run ends (Claude Code's fields, then ours);
 * - `stream-json`: Claude Code's message stream (`cc-messages.ts`), then the result object;
 * - `trace`: every TraceEvent as one JSON line as it happens, then the result object.
 * A printer never throws and never prints the API key (the loop's events carry none).
 */
import { hookRunLabel } from '../harness/hooks/index.ts';
import type { Message, Usage } from '../harness/messages.ts';
import type { ExitReason, RunResult, TraceEvent } from '../harness/index.ts';
import { CostLedger, costSummaryLines, formatUsd, type CostReport, type PriceTable } from '../harness/cost/index.ts';
import type { OutputFormat } from './args.ts';
import { ClaudeMessageStream, type InitInfo } from './cc-messages.ts';

export type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

/** Claude Code's result subtypes (SDKResultMessage). */
export type ResultSubtype = 'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error_during_execution';

export function resultSubtype(reason: ExitReason): ResultSubtype {
  if (reason === 'completed') return 'success';
  if (reason === 'max_turns') return 'error_max_turns';
  if (reason === 'max_budget') return 'error_max_budget_usd';
  return 'error_during_execution';
}

export type ModelUsageEntry = { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number; webSearchRequests: number; costUSD: number };

export type ResultObject = {
  // Claude Code's result message, field by field.
  type: 'result';
  subtype: ResultSubtype;
  is_error: boolean;
  duration_ms: number;
  /** Time spent waiting for the model (sum over responses). */
  duration_api_ms: number;
  num_turns: number;
  /** The assistant's final text. */
  result: string;
  session_id: string;
  total_cost_usd: number;
  usage: Usage;
  modelUsage: Record<string, ModelUsageEntry>;
  permission_denials: { tool_name: string; tool_use_id: string; tool_input: unknown }[];
  uuid: string;
  // Ours.
  /** How the run ended, in the harness's words (`subtype` folds several into error_during_execution). */
  reason: ExitReason;
  scenario: string;
  cost: {
    /** uncached + 1.25 × cache writes + 0.1 × cache reads: input priced in base-input tokens. */
    weighted_input_tokens: number;
    output_tokens: number;
    /** Share of input read from the prompt cache. */
    cache_hit_rate: number;
    /** One line per agent; a parent's `usd_total` includes its subagents and teammates. */
    by_agent: { agent_id: string; label: string; parent?: string; model: string; requests: number; usd_own: number; usd_total: number }[];
    /** Each tool call's share: its result's part of the request that carried it back. */
    by_tool_call: { tool_use_id: string; name: string; agent_id: string; usd: number }[];
    /** Calls outside the turns (`memory_extraction`, `collapse_summary`, `compact_summary`); in `total_cost_usd` and `modelUsage`. */
    side_calls: { kind: string; model: string; agent_id: string; usd: number }[];
    prices: { date: string; source: string };
    /** Models the price table does not name (priced with its fallback row). */
    assumed_models: string[];
  };
  error?: { kind: string; message: string };
  notes?: string[];
  write_back?: { written: string[]; deleted: string[] };
};

export type PrinterOptions = { verbose?: boolean; sessionId: string; prices: PriceTable; init: InitInfo; uuid: () => string };

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
  private readonly ledger: CostLedger;
  private readonly stream: ClaudeMessageStream;
  private readonly inputs = new Map<string, unknown>();
  private readonly denials: ResultObject['permission_denials'] = [];
  /** The main agent's slash command, if the prompt was one: its answer is the result, not the model's. */
  private slash: Extract<TraceEvent, { type: 'slash.command' }> | null = null;
  private lastDetail = '';
  constructor(
    private readonly format: OutputFormat,
    private readonly out: Out,
    private readonly opts: PrinterOptions,
  ) {
    this.ledger = new CostLedger(opts.prices);
    this.stream = new ClaudeMessageStream(opts.sessionId, opts.init, opts.uuid);
  }

  note(line: string): void {
    if (this.format === 'text') this.out.stderr(`note: ${line}\n`);
  }

  /** Dollars spent so far (every agent). */
  costUsd(): number {
    return this.ledger.totalUsd();
  }

  event(e: TraceEvent): void {
    if (e.type === 'model.response') this.apiMs += e.ms;
    if (e.type === 'tool.proposed') this.inputs.set(e.toolUseId, e.input);
    if (e.type === 'slash.command' && e.agentId === 'main') this.slash = e;
    if (e.type === 'transition' && e.agentId === 'main') this.lastDetail = e.detail ?? '';
    if (e.type === 'permission.decision' && e.decision === 'deny') this.denials.push({ tool_name: e.name, tool_use_id: e.toolUseId, tool_input: this.inputs.get(e.toolUseId) ?? null });
    const priced = this.ledger.add(e);
    if (this.format === 'trace') {
      this.out.stdout(JSON.stringify(e) + '\n');
      return;
    }
    if (this.format === 'stream-json') {
      for (const line of this.stream.event(e)) this.out.stdout(JSON.stringify(line) + '\n');
      return;
    }
    if (this.format !== 'text') return;
    let line = this.opts.verbose ? (verboseLine(e) ?? textLine(e)) : textLine(e);
    if (line && priced && this.opts.verbose) line += ` · ${formatUsd(priced.cost.total)}${e.agentId !== 'main' ? ` (${e.agentId})` : ''}`;
    if (line) this.out.stderr(line + '\n');
  }

  /** The money of the run so far (for the summary and the result object). */
  costReport(): CostReport {
    return this.ledger.report();
  }

  /**
   * What a built-in command prints headless, as Claude Code's `-p "/cost"` does: `/cost` the cost
   * summary of this invocation's calls, the others what the loop put in the event (`/context`'s
   * breakdown …), and `/compact`, `/clear` or an unknown command the loop's one-line outcome.
   */
  private slashText(report: CostReport, wallMs: number): string {
    if (this.slash?.name === 'cost' && this.slash.kind === 'builtin') return costSummaryLines(report, { apiMs: this.apiMs, wallMs }).join('\n');
    return this.slash?.output ?? this.lastDetail;
  }

  /** The end of one run: the answer (text), or the result object (json, stream-json, trace). */
  finish(scenario: string, r: RunResult, extra: { notes?: string[]; writeBack?: ResultObject['write_back'] } = {}): ResultObject {
    const u = r.usage;
    const input = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    const report = this.ledger.report();
    const obj: ResultObject = {
      type: 'result',
      subtype: resultSubtype(r.reason),
      is_error: r.reason !== 'completed',
      duration_ms: Date.now() - this.started,
      duration_api_ms: this.apiMs,
      num_turns: r.turns,
      result: this.slash && this.slash.kind !== 'custom' ? this.slashText(report, Date.now() - this.started) : finalText(r.messages),
      session_id: this.opts.sessionId,
      total_cost_usd: roundUsd(report.totalUsd),
      usage: u,
      modelUsage: modelUsageOf(report),
      permission_denials: this.denials,
      uuid: this.opts.uuid(),
      reason: r.reason,
      scenario,
      cost: {
        weighted_input_tokens: Math.round(weightedInput(u) * 10) / 10,
        output_tokens: u.output_tokens,
        cache_hit_rate: input === 0 ? 0 : Math.round(((u.cache_read_input_tokens ?? 0) / input) * 1000) / 1000,
        by_agent: report.agents.map((a) => ({ agent_id: a.agentId, label: a.label, ...(a.parentAgentId ? { parent: a.parentAgentId } : {}), model: a.model, requests: a.requests, usd_own: roundUsd(a.ownUsd), usd_total: roundUsd(a.totalUsd) })),
        by_tool_call: report.toolCalls.map((t) => ({ tool_use_id: t.toolUseId, name: t.name, agent_id: t.agentId, usd: roundUsd(t.usd) })),
        side_calls: report.sideCalls.map((c) => ({ kind: c.kind, model: c.model, agent_id: c.agentId, usd: roundUsd(c.cost.total) })),
        prices: report.prices,
        assumed_models: report.assumedModels,
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
      if (this.opts.verbose) for (const l of costSummaryLines(report, { apiMs: this.apiMs, wallMs: obj.duration_ms })) this.out.stderr(l + '\n');
    } else {
      this.out.stdout(JSON.stringify(obj) + '\n');
    }
    return obj;
  }
}

/** Dollars to a millionth of a cent's precision, so JSON stays readable. */
const roundUsd = (usd: number) => Math.round(usd * 1e8) / 1e8;

/** Usage and dollars per model, as Claude Code's `modelUsage`: every call, the side calls (summaries, memory extraction) too. */
function modelUsageOf(report: CostReport): Record<string, ModelUsageEntry> {
  const out: Record<string, ModelUsageEntry> = {};
  for (const r of [...report.requests, ...report.sideCalls]) {
    const m = (out[r.model] ??= { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0, costUSD: 0 });
    m.inputTokens += r.usage.input_tokens;
    m.outputTokens += r.usage.output_tokens;
    m.cacheReadInputTokens += r.usage.cache_read_input_tokens ?? 0;
    m.cacheCreationInputTokens += r.usage.cache_creation_input_tokens ?? 0;
    m.costUSD = roundUsd(m.costUSD + r.cost.total);
  }
  return out;
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
    case 'model.fallback':
      return `fallback: ${e.from} → ${e.to} (${e.error.kind})`;
    case 'budget.exceeded':
      return `budget: spent ${formatUsd(e.spentUsd)} of ${formatUsd(e.maxUsd)}; the next call (≥ ${formatUsd(e.nextEstimateUsd)}) would cross it — stopping`;
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
      return `  hook ${e.event}${e.matcher ? ` [${e.matcher}]` : ''} ${clip(hookRunLabel(e.hook), 60)}: ${e.refused ? 'refused' : e.hook.type === 'http' && e.status !== undefined ? `HTTP ${e.status}` : `exit ${e.exitCode}`}${e.timedOut ? ' (timed out)' : ''}${e.decision && e.decision !== 'none' ? `, ${e.decision}` : ''}${e.background ? ` (background ${e.background.id}${e.background.rewake ? ', woke the agent' : ''})` : ''}`;
    case 'hook.async_started':
      return `  hook ${e.event}${e.matcher ? ` [${e.matcher}]` : ''} ${clip(hookRunLabel(e.hook), 60)}: started in the background (${e.id})`;
    case 'transition':
      return `→ ${e.reason}${e.detail ? `: ${clip(e.detail, 120)}` : ''}`;
    default:
      return null;
  }
}
