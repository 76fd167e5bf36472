/**
 * Context bench (`npx tsx test/bench/context.ts`): a long generated session (240 turns, large tool
 * outputs) run through our context pipeline and through a naive "summarise and rewrite the whole
 * history when over the threshold" baseline (seed 003 style). For each: prefix reuse (tokens two
 * consecutive requests share from the start ÷ tokens sent), simulated cache-hit rate, relative
 * input cost, how often each layer fired. Then the pipeline's overhead per call as the history
 * grows. Ratios within one run; nothing is asserted.
 */
import type { Message, ModelRequest, TextBlock } from '../../src/harness/messages.ts';
import { prepareContext, recordCacheUsage } from '../../src/harness/context/pipeline.ts';
import { emptyContextState, type ContextState } from '../../src/harness/context/state.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { emptyCacheSim, simulateCacheUsage, type CacheSimState } from '../../src/harness/context/cache-sim.ts';
import { commonPrefixTokens } from '../../src/harness/context/prefix.ts';
import { requestTokens } from '../../src/harness/context/tokens.ts';
import type { ContextSettingsInput } from '../../src/harness/context/settings.ts';
import { summaryMessageText } from '../../src/harness/context/compact-prompt.ts';
import { exchange, int, rng, SYSTEM, tools } from '../unit/context-fixtures.ts';

const TURNS = 240;
const WINDOW = 200_000;
const MODEL = 'bench-model';
const system: TextBlock[] = [{ type: 'text', text: SYSTEM }];
/** Minutes of idle time before these turns (the 5-minute cache expires). */
const GAPS = new Set([90, 170]);

/** The session's exchanges, generated once so both strategies see the same work. */
export function sessionExchanges(): Message[][] {
  const r = rng(2026);
  return Array.from({ length: TURNS }, (_, i) => {
    const calls = int(r, 1, 2);
    const sizes = Array.from({ length: calls }, () => (r() < 0.08 ? int(r, 35_000, 60_000) : int(r, 2_000, 14_000)));
    const [a, u] = exchange(sizes, { name: r() < 0.5 ? 'read' : 'bash', ...(i % 25 === 0 ? { userText: `Now also handle case ${i}.` } : {}) });
    return [a, u];
  });
}

export type Stats = {
  name: string;
  calls: number;
  shared: number;
  sent: number;
  read: number;
  creation: number;
  uncached: number;
  maxTokens: number;
  fired: Record<string, number>;
};

function newStats(name: string): Stats {
  return { name, calls: 0, shared: 0, sent: 0, read: 0, creation: 0, uncached: 0, maxTokens: 0, fired: {} };
}

function account(s: Stats, prev: ModelRequest | null, request: ModelRequest, sim: CacheSimState, expired: boolean) {
  const total = requestTokens(request).total;
  s.calls++;
  s.sent += total;
  s.shared += prev ? commonPrefixTokens(prev, request) : 0;
  s.maxTokens = Math.max(s.maxTokens, total);
  const { usage, next } = simulateCacheUsage(expired ? emptyCacheSim() : sim, request);
  s.read += usage.cache_read_input_tokens;
  s.creation += usage.cache_creation_input_tokens;
  s.uncached += usage.input_tokens;
  return { usage, next };
}

export async function runPipeline(name: string, settings: ContextSettingsInput, exchanges: Message[][]): Promise<Stats> {
  const s = newStats(name);
  let truth: Message[] = [{ role: 'user', content: 'Refactor the payment module and keep the tests green.' }];
  let state: ContextState = emptyContextState();
  let sim = emptyCacheSim();
  let prev: ModelRequest | null = null;
  let now = 0;
  for (let t = 0; t < TURNS; t++) {
    const expired = GAPS.has(t);
    now += expired ? 6 * 60_000 : 20_000;
    const gen = prepareContext({ messages: truth, system, tools, model: MODEL, state, settings, summarize: deterministicSummarizer, now });
    let step = await gen.next();
    while (!step.done) {
      const e = step.value;
      // Collapse "fires" on every call that projects a stored range; count the new ranges instead.
      const n = e.type !== 'compaction.layer' || !e.fired ? 0 : e.layer === 'collapse' ? e.changes.filter((c) => c.kind === 'range_collapsed' && c.isNew).length : 1;
      if (n > 0 && e.type === 'compaction.layer') s.fired[e.layer === 'collapse' ? 'new collapse' : e.layer] = (s.fired[e.layer === 'collapse' ? 'new collapse' : e.layer] ?? 0) + n;
      step = await gen.next();
    }
    const result = step.value;
    const request: ModelRequest = { model: MODEL, max_tokens: 4096, ...result.request };
    const { usage, next } = account(s, prev, request, sim, expired);
    sim = next;
    state = recordCacheUsage(result.nextState, usage).state;
    truth = [...(result.committed ?? truth), ...exchanges[t]!];
    prev = request;
  }
  return s;
}

/** Seed 003's compressor: over the threshold, summarise all but the last 6 messages into one. */
async function runNaive(name: string, opts: { threshold: number; breakpoints: 'seed003' | 'ours' }, exchanges: Message[][]): Promise<Stats> {
  const { placeBreakpoints } = await import('../../src/harness/context/cache.ts');
  const s = newStats(name);
  let history: Message[] = [{ role: 'user', content: 'Refactor the payment module and keep the tests green.' }];
  let sim = emptyCacheSim();
  let prev: ModelRequest | null = null;
  const KEEP = 6;
  for (let t = 0; t < TURNS; t++) {
    const expired = GAPS.has(t);
    if (requestTokens({ system, tools, messages: history }).total >= opts.threshold && history.length > KEEP + 1) {
      const old = history.slice(0, -KEEP);
      const sum = await deterministicSummarizer(old, new AbortController().signal, { trigger: 'auto' });
      const summary = sum.ok ? sum.summary : '';
      history = [{ role: 'user', content: summaryMessageText(summary, old.length) }, ...history.slice(-KEEP)];
      s.fired.rewrite = (s.fired.rewrite ?? 0) + 1;
    }
    const parts =
      opts.breakpoints === 'ours'
        ? placeBreakpoints({ system, tools, messages: history })
        : {
            // Seed 003: cache_control on the system block and the last tool only.
            system: system.map((b) => ({ ...b, cache_control: { type: 'ephemeral' as const } })),
            tools: tools.map((x, i) => (i === tools.length - 1 ? { ...x, cache_control: { type: 'ephemeral' as const } } : x)),
            messages: history,
          };
    const request: ModelRequest = { model: MODEL, max_tokens: 4096, ...parts };
    sim = account(s, prev, request, sim, expired).next;
    history = [...history, ...exchanges[t]!];
    prev = request;
  }
  return s;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const pad = (v: string | number, n: number) => String(v).padStart(n);

function table(rows: Stats[]) {
  console.log(`${'strategy'.padEnd(44)} ${pad('prefix reuse', 13)} ${pad('cache hit', 10)} ${pad('rel. cost', 10)} ${pad('max tokens', 11)}  layers fired`);
  const baseCost = (s: Stats) => s.uncached + 1.25 * s.creation + 0.1 * s.read;
  const ref = baseCost(rows[0]!);
  for (const s of rows) {
    const fired = Object.entries(s.fired).map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(
      `${s.name.padEnd(44)} ${pad(pct(s.shared / s.sent), 13)} ${pad(pct(s.read / (s.read + s.creation + s.uncached)), 10)} ${pad((baseCost(s) / ref).toFixed(2), 10)} ${pad(s.maxTokens, 11)}  ${fired}`,
    );
  }
}

async function overhead() {
  const settings: ContextSettingsInput = { windowTokens: 2_000_000 };
  const rows: { messages: number; ms: number }[] = [];
  for (const target of [100, 1_000, 2_000]) {
    const r = rng(target);
    let truth: Message[] = [{ role: 'user', content: 'task' }];
    while (truth.length < target) truth.push(...exchange([int(r, 100, 2_500)], { name: 'bash' }));
    let state = emptyContextState();
    const calls = 40;
    // Warm-up call (JIT, memo tables), then timed calls that each append one exchange.
    const once = async () => {
      const gen = prepareContext({ messages: truth, system, tools, model: MODEL, state, settings, summarize: deterministicSummarizer });
      let step = await gen.next();
      while (!step.done) step = await gen.next();
      state = step.value.nextState;
      truth = [...(step.value.committed ?? truth), ...exchange([300], { name: 'bash' })];
    };
    await once();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await once();
    rows.push({ messages: target, ms: (performance.now() - t0) / calls });
  }
  console.log(`\nPipeline overhead per call (all layers on, window 2M so the history stays long)\n`);
  console.log(`${pad('messages', 9)} ${pad('ms/call', 9)} ${pad('µs/message', 11)} ${pad('× 100-msg', 10)}`);
  for (const row of rows) {
    console.log(`${pad(row.messages, 9)} ${pad(row.ms.toFixed(3), 9)} ${pad(((row.ms * 1000) / row.messages).toFixed(2), 11)} ${pad((row.ms / rows[0]!.ms).toFixed(2), 10)}`);
  }
  console.log('Linear growth shows as a flat µs/message column.');
}

async function main() {
  const ex = sessionExchanges();
  const line = Math.floor(0.85 * WINDOW);
  console.log(`Context bench: ${TURNS} turns, large tool outputs, window ${WINDOW.toLocaleString('en-US')}, idle gaps (cache expiry) before turns ${[...GAPS].join(', ')}\n`);
  const rows = [
    await runNaive('naive rewrite @85 % (seed 003 breakpoints)', { threshold: line, breakpoints: 'seed003' }, ex),
    await runNaive('naive rewrite @85 % (our breakpoints)', { threshold: line, breakpoints: 'ours' }, ex),
    await runNaive('seed 003 literal (40k chars, keep 6)', { threshold: 10_000 + requestTokens({ system, tools, messages: [] }).total, breakpoints: 'seed003' }, ex),
    await runPipeline('pipeline, defaults', {}, ex),
    await runPipeline('pipeline, microcompact off (collapse works)', { microcompact: { enabled: false } }, ex),
    await runPipeline('pipeline, only budget + auto-compact', { microcompact: { enabled: false }, collapse: { enabled: false } }, ex),
    await runPipeline('pipeline, microcompact not cache-aware', { microcompact: { cacheAware: false } }, ex),
  ];
  table(rows);
  console.log('\nprefix reuse = Σ tokens shared with the previous request ÷ Σ tokens sent; cache hit = simulated reads ÷ input;');
  console.log('rel. cost = uncached + 1.25 × writes + 0.1 × reads, relative to the first row.');
  await overhead();
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
