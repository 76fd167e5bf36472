/**
 * Long-session bench (`npx tsx test/bench/long-session.ts`, part of `npm run bench`): one scripted
 * session of 220 turns over more than 1 MB of tool output, a 100k-token window, run through our
 * context pipeline and three peer strategies on the same script:
 *
 * - never compact: append until the API refuses (every request over the window is rejected);
 * - compact on rejection (pi): send as is; on "prompt is too long" summarise all but the most recent
 *   ~20k tokens and resend;
 * - summarise at 67 % of the window (Claude Code's threshold): summary + the last exchange.
 *
 * Every strategy pays for its summary calls too (the history so far plus the instruction, through
 * the same simulated cache). Reported: cost-weighted input (uncached + 1.25 × cache write + 0.1 ×
 * cache read), prefix reuse, peak context and rejected requests. Ratios within one run; nothing is
 * asserted here (the unit tests pin the behaviour that makes ours win).
 */
import type { ContentBlock, Message, ModelRequest, TextBlock } from '../../src/harness/messages.ts';
import { prepareContext, recordCacheUsage } from '../../src/harness/context/pipeline.ts';
import { placeBreakpoints } from '../../src/harness/context/cache.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import { deterministicSummarizer, type Summarize } from '../../src/harness/context/summarizer.ts';
import { modelCollapseSummarizer } from '../../src/harness/context/collapse-model.ts';
import { isFinding } from '../../src/harness/context/findings.ts';
import type { ModelClient } from '../../src/harness/ports.ts';
import { emptyCacheSim, simulateCacheUsage, type CacheSimState } from '../../src/harness/context/cache-sim.ts';
import { commonPrefixTokens } from '../../src/harness/context/prefix.ts';
import { messageTokens, requestTokens } from '../../src/harness/context/tokens.ts';
import { compactInstructions, summaryMessageText } from '../../src/harness/context/compact-prompt.ts';
import type { ContextSettingsInput } from '../../src/harness/context/settings.ts';
import { exchange, int, rng, SYSTEM, tools as fixtureTools } from '../unit/context-fixtures.ts';

export const LONG_TURNS = 220;
export const LONG_WINDOW = 100_000;
const MODEL = 'bench-model';
const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
/** Sorted by name as the pipeline sends them, so every strategy's requests share one tools prefix. */
const tools = [...fixtureTools].sort((a, b) => (a.name < b.name ? -1 : 1));
const FIRST: Message = { role: 'user', content: 'Refactor the payment module and keep the tests green.' };

/**
 * Facts planted in early turns (a value, a bug's location, a decision), for the retention check:
 * `key` is what must still be in the request (or recoverable through `read_tool_result`).
 */
export const PLANTED: readonly { turn: number; key: string; line: string; where: 'result' | 'assistant' }[] = [
  { turn: 2, key: '4817', line: 'src/config.ts:14 RATE_LIMIT = 4817 (requests per minute, agreed with ops)', where: 'result' },
  { turn: 9, key: 'refund.ts:212', line: 'error: refund double-counts the fee at src/payments/refund.ts:212', where: 'result' },
  { turn: 17, key: 'v2 ledger', line: 'Decision: keep the v2 ledger format; never migrate rows in place.', where: 'assistant' },
  { turn: 40, key: 'ROUNDING_MODE', line: 'src/money.ts:88 ROUNDING_MODE = half-even (the tests assume it)', where: 'result' },
];

/** Puts `line` first in the exchange's first tool result, or in its assistant text. */
function plant(ex: [Message, Message], line: string, where: 'result' | 'assistant'): [Message, Message] {
  const [a, u] = ex;
  if (where === 'assistant') return [{ role: 'assistant', content: [{ type: 'text', text: line }, ...(a.content as ContentBlock[]).filter((b) => b.type !== 'text')] }, u];
  const blocks = (u.content as ContentBlock[]).map((b, i) => (i === 0 && b.type === 'tool_result' ? { ...b, content: `${line}\n${typeof b.content === 'string' ? b.content : ''}` } : b));
  return [a, { role: 'user', content: blocks }];
}

/** The session's exchanges: mostly 1–8k-char results, some up to the 30k bash/read cut. */
export function longSessionScript(turns = LONG_TURNS, seed = 2027): { exchanges: Message[][]; outputChars: number } {
  const r = rng(seed);
  let outputChars = 0;
  const exchanges = Array.from({ length: turns }, (_, i) => {
    const calls = int(r, 1, 2);
    const sizes = Array.from({ length: calls }, () => (r() < 0.06 ? int(r, 18_000, 30_000) : int(r, 600, 7_000)));
    outputChars += sizes.reduce((a, b) => a + b, 0);
    const ex = exchange(sizes, { name: r() < 0.5 ? 'read' : 'bash', ...(i % 30 === 0 ? { userText: `Now also handle case ${i}.` } : {}) });
    const fact = PLANTED.find((p) => p.turn === i);
    return fact ? plant(ex, fact.line, fact.where) : ex;
  });
  return { exchanges, outputChars };
}

/** Share of the facts planted before `turn` still in `request`, or (ours) named by a reference whose stored original holds them. */
function retention(request: ModelRequest, turn: number, stored: Record<string, { content: string }> = {}): number {
  const due = PLANTED.filter((p) => p.turn < turn);
  if (due.length === 0) return 1;
  const text = JSON.stringify(request.messages);
  const kept = due.filter((p) => text.includes(p.key) || Object.entries(stored).some(([id, r]) => r.content.includes(p.key) && text.includes(id)));
  return kept.length / due.length;
}

export type LongStats = {
  name: string;
  requests: number;
  rejected: number;
  summaries: number;
  shared: number;
  sent: number;
  read: number;
  creation: number;
  uncached: number;
  peak: number;
  /** After each rewrite: the share of planted facts still in the request or recoverable (`PLANTED`). */
  retained: number[];
  /** Cache read share of the first request after each history rewrite (collapse, compaction, trim, summary). */
  afterRewrite: number[];
};

export const costOf = (s: LongStats) => s.uncached + 1.25 * s.creation + 0.1 * s.read;

/** Sends requests through one simulated cache; over the window a request is rejected (billed nothing). */
class Account {
  readonly s: LongStats;
  private sim: CacheSimState = emptyCacheSim();
  private prev: ModelRequest | null = null;
  constructor(name: string) {
    this.s = { name, requests: 0, rejected: 0, summaries: 0, shared: 0, sent: 0, read: 0, creation: 0, uncached: 0, peak: 0, afterRewrite: [], retained: [] };
  }
  /** Returns the simulated usage, or null when the API would refuse the prompt as too long. */
  send(request: ModelRequest, opts: { summary?: boolean; afterRewrite?: boolean } = {}) {
    const total = requestTokens(request).total;
    if (total > LONG_WINDOW) {
      this.s.rejected++;
      return null;
    }
    const s = this.s;
    s.requests++;
    if (opts.summary) s.summaries++;
    s.sent += total;
    s.shared += this.prev ? commonPrefixTokens(this.prev, request) : 0;
    s.peak = Math.max(s.peak, total);
    const { usage, next } = simulateCacheUsage(this.sim, request);
    this.sim = next;
    this.prev = request;
    s.read += usage.cache_read_input_tokens;
    s.creation += usage.cache_creation_input_tokens;
    s.uncached += usage.input_tokens;
    if (opts.afterRewrite) s.afterRewrite.push(usage.cache_read_input_tokens / Math.max(1, total));
    return usage;
  }
}

const request = (messages: Message[]): ModelRequest => ({ model: MODEL, max_tokens: 4096, ...placeBreakpoints({ system, tools, messages }) });

/**
 * The summary call every strategy pays for: the messages as last sent plus the instruction, so it
 * reads the cached prefix. If even that is over the window, the oldest messages are left out.
 */
function summaryRequest(messages: Message[]): ModelRequest {
  let msgs = messages;
  const instruction: Message = { role: 'user', content: [{ type: 'text', text: compactInstructions() }] };
  const merge = (m: Message[]): Message[] =>
    m.length > 0 && m[m.length - 1]!.role === 'user'
      ? [...m.slice(0, -1), { role: 'user', content: [...(typeof m[m.length - 1]!.content === 'string' ? [{ type: 'text' as const, text: m[m.length - 1]!.content as string }] : (m[m.length - 1]!.content as never[])), ...(instruction.content as never[])] }]
      : [...m, instruction];
  while (requestTokens(request(merge(msgs))).total > LONG_WINDOW && msgs.length > 2) msgs = msgs.slice(2);
  return request(merge(msgs));
}

async function summaryOf(messages: Message[]): Promise<string> {
  const r = await deterministicSummarizer(messages);
  return r.ok ? r.summary : '';
}

/** Never compacting: requests over the window are rejected and the session cannot go on. */
export function runNever(script: Message[][]): LongStats {
  const acc = new Account('never compact');
  let history: Message[] = [FIRST];
  for (const ex of script) {
    acc.send(request(history));
    history = [...history, ...ex];
  }
  return acc.s;
}

/** pi: on "prompt is too long", summarise all but the last ~20k tokens and resend. */
export async function runOnRejection(script: Message[][]): Promise<LongStats> {
  const acc = new Account('compact on rejection (pi)');
  const KEEP_TOKENS = 20_000;
  let history: Message[] = [FIRST];
  let lastSent: Message[] = history;
  for (const [turn, ex] of script.entries()) {
    if (acc.send(request(history)) === null) {
      acc.send(summaryRequest(lastSent), { summary: true });
      // Keep whole exchanges from the end up to ~20k tokens.
      let keep = 0;
      let kept = 0;
      for (let i = history.length - 1; i >= 1; i -= 2) {
        const t = messageTokens(history[i]!) + messageTokens(history[i - 1]!);
        if (kept + t > KEEP_TOKENS && keep > 0) break;
        kept += t;
        keep += 2;
      }
      const old = history.slice(0, history.length - keep);
      history = [{ role: 'user', content: [{ type: 'text', text: summaryMessageText(await summaryOf(old), old.length) }] }, ...history.slice(history.length - keep)];
      // The kept tail starts with an assistant message after the summary: roles alternate.
      acc.send(request(history), { afterRewrite: true });
      acc.s.retained.push(retention(request(history), turn));
    }
    lastSent = history;
    history = [...history, ...ex];
  }
  return acc.s;
}

/** Claude Code: at 67 % of the window, summary + the last exchange. */
export async function runThreshold(script: Message[][], fraction = 0.67): Promise<LongStats> {
  const acc = new Account(`summarise at ${Math.round(fraction * 100)} % (Claude Code)`);
  let history: Message[] = [FIRST];
  let lastSent: Message[] = history;
  for (const [turn, ex] of script.entries()) {
    let rewrote = false;
    if (requestTokens(request(history)).total >= fraction * LONG_WINDOW && history.length > 3) {
      acc.send(summaryRequest(lastSent), { summary: true });
      const old = history.slice(0, -2);
      history = [{ role: 'user', content: [{ type: 'text', text: summaryMessageText(await summaryOf(old), old.length) }] }, ...history.slice(-2)];
      rewrote = true;
    }
    acc.send(request(history), { afterRewrite: rewrote });
    if (rewrote) acc.s.retained.push(retention(request(history), turn));
    lastSent = history;
    history = [...history, ...ex];
  }
  return acc.s;
}

/**
 * A deterministic stand-in for the model that writes collapse summaries, offline: its reply is
 * built from the prompt it got (every line of it that reads as a finding, `findings.ts`), so the
 * retention of this row measures what the prompt carried. Each call is billed through the account.
 */
function benchSummaryModel(acc: Account): ModelClient {
  return {
    name: 'bench-summary',
    async *stream(request) {
      const usage = acc.send(request, { summary: true });
      const prompt = request.messages.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))));
      const lines = [...new Set(prompt.join('\n').split('\n').filter(isFinding).map((l) => l.trim()))].slice(0, 60);
      const text = `Summary (bench model): ${lines.length} findings.\n${lines.join('\n')}`;
      yield { type: 'message_start', message: { id: 'msg_bench', model: request.model, usage: { input_tokens: usage?.input_tokens ?? 0 } } };
      yield { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
      yield { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } };
      yield { type: 'content_block_stop', index: 0 };
      yield { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: Math.ceil(text.length / 4) } };
      yield { type: 'message_stop' };
    },
  };
}

/** Our pipeline with its defaults and a 100k window; its auto-compact (and model collapse) summary calls are billed too. */
export async function runOurs(script: Message[][], name = 'ours (pipeline defaults)', settings: ContextSettingsInput = {}, opts: { modelCollapse?: boolean } = {}): Promise<LongStats & { fired: Record<string, number> }> {
  const acc = new Account(name);
  const collapseSummarize = opts.modelCollapse ? modelCollapseSummarizer(benchSummaryModel(acc), { model: MODEL }) : undefined;
  const fired: Record<string, number> = {};
  let truth: Message[] = [FIRST];
  let state: ContextState = emptyContextState();
  let lastSent: Message[] = truth;
  let now = 0;
  const summarize: Summarize = async (messages, signal, info) => {
    acc.send(summaryRequest(lastSent), { summary: true });
    return deterministicSummarizer(messages, signal, info);
  };
  for (const [turn, ex] of script.entries()) {
    now += 20_000;
    const gen = prepareContext({ messages: truth, system, tools, model: MODEL, state, settings: { ...settings, windowTokens: LONG_WINDOW }, summarize, ...(collapseSummarize ? { collapseSummarize } : {}), now });
    let step = await gen.next();
    let rewrote = false;
    while (!step.done) {
      const e = step.value;
      if (e.type === 'compaction.layer' && e.fired) {
        const n = e.layer === 'collapse' ? e.changes.filter((c) => c.kind === 'range_collapsed' && c.isNew).length : 1;
        if (n > 0) fired[e.layer] = (fired[e.layer] ?? 0) + n;
        if (n > 0 && (e.layer === 'collapse' || e.layer === 'auto_compact' || e.committed)) rewrote = true;
      }
      step = await gen.next();
    }
    const result = step.value;
    const req: ModelRequest = { model: MODEL, max_tokens: 4096, ...result.request };
    if (rewrote) acc.s.retained.push(retention(req, turn, result.nextState.stored));
    const usage = acc.send(req, { afterRewrite: rewrote }) ?? { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    state = recordCacheUsage(result.nextState, usage).state;
    lastSent = req.messages;
    truth = [...(result.committed ?? truth), ...ex];
  }
  return { ...acc.s, fired };
}

const pad = (v: string | number, n: number) => String(v).padStart(n);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export async function longSessionRows() {
  const { exchanges, outputChars } = longSessionScript();
  const ours = await runOurs(exchanges);
  const actionsOnly = await runOurs(exchanges, 'ours, summaries without findings', { collapse: { findings: false } });
  const written = await runOurs(exchanges, 'ours, model-written collapse', {}, { modelCollapse: true });
  const rows: (LongStats & { fired?: Record<string, number> })[] = [runNever(exchanges), await runOnRejection(exchanges), await runThreshold(exchanges), actionsOnly, written, ours];
  return { rows, outputChars, turns: exchanges.length };
}

async function main() {
  const { rows, outputChars, turns } = await longSessionRows();
  console.log(`Long session: ${turns} turns, ${(outputChars / 1e6).toFixed(2)} MB of tool output, window ${LONG_WINDOW.toLocaleString('en-US')} tokens\n`);
  const ours = costOf(rows[rows.length - 1]!);
  console.log(`${'strategy'.padEnd(34)} ${pad('cost-wtd input', 15)} ${pad('× ours', 7)} ${pad('prefix reuse', 13)} ${pad('cache read', 11)} ${pad('after rewrite', 14)} ${pad('retention', 10)} ${pad('peak ctx', 9)} ${pad('rejected', 9)} ${pad('summaries', 10)}  layers fired`);
  for (const s of rows) {
    const fired = s.fired ? Object.entries(s.fired).map(([k, v]) => `${k} ${v}`).join(', ') : '';
    console.log(
      `${s.name.padEnd(34)} ${pad(Math.round(costOf(s)).toLocaleString('en-US'), 15)} ${pad((costOf(s) / ours).toFixed(2), 7)} ${pad(pct(s.shared / Math.max(1, s.sent)), 13)} ${pad(pct(s.read / Math.max(1, s.read + s.creation + s.uncached)), 11)} ${pad(s.afterRewrite.length ? pct(s.afterRewrite.reduce((a, b) => a + b, 0) / s.afterRewrite.length) : '–', 14)} ${pad(s.retained.length ? pct(s.retained.reduce((a, b) => a + b, 0) / s.retained.length) : '–', 10)} ${pad(s.peak, 9)} ${pad(s.rejected, 9)} ${pad(s.summaries, 10)}  ${fired}`,
    );
  }
  console.log('\ncost-wtd input = uncached + 1.25 × cache writes + 0.1 × cache reads (summary calls included);');
  console.log('after rewrite = mean cache-read share of the first request after each rewrite (ours: per rewrite below);');
  const oursRow = rows[rows.length - 1]!;
  console.log(`  ours, each rewrite: ${oursRow.afterRewrite.map((x) => pct(x)).join(', ')}`);
  console.log(`retention = mean share of ${PLANTED.length} planted facts (a value, a bug's location, a decision…) still in the request or recoverable`);
  console.log('  through read_tool_result, after each rewrite; the baselines\' summaries use the same deterministic summariser as ours.');
  console.log('"model-written collapse": each new collapse range summarised by a no-tools call (billed) to an offline stand-in model');
  console.log('  that writes the finding lines its prompt carried (live runs; replays keep the deterministic summary).');
  console.log('"never compact" stops being billed once its prompts are rejected: its cost is not comparable.');
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
