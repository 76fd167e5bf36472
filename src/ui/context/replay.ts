/**
 * What-if: replay a recorded session's context pipeline under other settings.
 *
 * {@link recordSession} reads the event log back into what the pipeline saw: the stored history
 * before the first call, and, between calls, the messages the loop appended (model replies, tool
 * results). {@link replaySession} then re-runs `prepareContext` call by call on its *own* history —
 * so a compaction that fires earlier changes every later call, as it would have in the run — with
 * a model-free summariser, and prices each replayed request with the cache simulator.
 *
 * The model's replies are the recorded ones: a different history might have made the model say
 * something else, which no replay can know. That is the honest limit of a what-if.
 */
import type { CacheBreak, CompactionLayerName, Message, ModelRequest, TextBlock, ToolSchema, TraceEvent, Usage } from '../../harness/index.ts';
import {
  deterministicSummarizer,
  emptyCacheSim,
  emptyContextState,
  parseContextSettings,
  prepareContext,
  recordCacheUsage,
  simulateCacheUsage,
  type ContextSettings,
  type ContextSettingsInput,
  type ContextState,
  type PrefixRequest,
} from '../../harness/context/index.ts';
import { inputCost, LAYER_ORDER } from './derive.ts';

/** A change to the stored history between two calls: a new message, or one merged into (replacing) a recent one. */
export type HistoryOp = { kind: 'append'; message: Message } | { kind: 'replace'; fromEnd: number; message: Message };

export type CacheNumbers = { read: number; creation: number; uncached: number; hitRate: number };

export type RecordedCall = {
  turn: number;
  attempt: number;
  ts: number;
  /** Applied to the history, in order, just before this call's pipeline ran. */
  ops: HistoryOp[];
  request: ModelRequest;
  /** The memory text the recorded request carried in its first message, if any. */
  memory?: string;
  /** Layers that fired before this call in the recording. */
  fired: CompactionLayerName[];
  /** Projected tokens the recording sent. */
  projected?: number;
  cache?: CacheNumbers;
};

export type RecordedSession = {
  /** The stored history before the first call's ops. */
  initial: Message[];
  calls: RecordedCall[];
  /** True when the log started mid-conversation and the start was rebuilt from the first request. */
  approximate: boolean;
};

export type ReplayedLayer = { layer: CompactionLayerName; fired: boolean; tokensBefore: number; tokensAfter: number; reason: string };

export type ReplayedCall = {
  turn: number;
  layers: ReplayedLayer[];
  fired: CompactionLayerName[];
  projected: number;
  truth: number;
  window: number;
  threshold: number;
  /** The projected request would not fit the window ("prompt is too long"). */
  overWindow: boolean;
  cache: CacheNumbers;
  breakDiff: CacheBreak | null;
};

export type ReplayTotals = { calls: number; read: number; creation: number; uncached: number; hitRate: number; cost: number; compactions: number; peak: number };

export type ReplayResult = { settings: ContextSettings; calls: ReplayedCall[]; totals: ReplayTotals };

const stripMarker = <T extends object>(x: T): T => {
  if (!('cache_control' in x)) return x;
  const { cache_control: _cc, ...rest } = x as T & { cache_control?: unknown };
  return rest as T;
};

function stripMessage(m: Message): Message {
  return typeof m.content === 'string' ? m : { role: m.role, content: m.content.map(stripMarker) };
}

/** The memory text of a recorded request: the first block of its first message, when the assembly counted memory. */
function memoryOf(request: ModelRequest, memoryTokens: number | undefined): string | undefined {
  if (!memoryTokens) return undefined;
  const first = request.messages[0];
  if (!first || typeof first.content === 'string') return undefined;
  const b = first.content[0];
  return b?.type === 'text' ? b.text : undefined;
}

/**
 * The session as the context pipeline saw it, from the event log of the main agent. Follow-up
 * runs continue the same history.
 */
export function recordSession(events: readonly TraceEvent[], agentId = 'main'): RecordedSession {
  let truth: Message[] = [];
  let initial: Message[] | null = null;
  let approximate = false;
  let ops: HistoryOp[] = [];
  let fired: CompactionLayerName[] = [];
  let memoryTokens: number | undefined;
  let projected: number | undefined;
  let firstMissing = -1;
  const calls: RecordedCall[] = [];
  let lastSent: RecordedCall | null = null;
  for (const e of events) {
    if (e.agentId !== agentId) continue;
    if (e.type === 'message.appended') {
      if (e.index >= truth.length) {
        // A log that starts mid-conversation: remember where, and rebuild the start from the request.
        if (e.index > truth.length && calls.length === 0 && truth.length === 0) firstMissing = e.index;
        truth = [...truth, e.message];
        ops.push({ kind: 'append', message: e.message });
      } else {
        const next = [...truth];
        next[e.index] = e.message;
        ops.push({ kind: 'replace', fromEnd: truth.length - 1 - e.index, message: e.message });
        truth = next;
      }
    } else if (e.type === 'history.rewritten') {
      truth = e.messages;
    } else if (e.type === 'compaction.layer') {
      if (e.fired) fired.push(e.layer);
    } else if (e.type === 'context.assembled') {
      memoryTokens = e.parts.memory;
      projected = e.total;
    } else if (e.type === 'model.request') {
      const memory = memoryOf(e.request, memoryTokens);
      if (initial === null) {
        if (firstMissing > 0) {
          // The messages before the first logged one, as the first request carried them.
          const sent = e.request.messages.map(stripMessage);
          const head = memory && sent[0] && typeof sent[0].content !== 'string' ? [{ role: sent[0].role, content: sent[0].content.slice(1) }, ...sent.slice(1)] : sent;
          initial = head.slice(0, firstMissing);
          approximate = true;
        } else initial = [];
      }
      const call: RecordedCall = {
        turn: e.turn,
        attempt: e.attempt,
        ts: e.ts,
        ops,
        request: e.request,
        ...(memory !== undefined ? { memory } : {}),
        fired: [...new Set(fired)],
        ...(projected !== undefined ? { projected } : {}),
      };
      calls.push(call);
      lastSent = call;
      ops = [];
      fired = [];
    } else if (e.type === 'cache.stats') {
      if (lastSent && !lastSent.cache) lastSent.cache = { read: e.read, creation: e.creation, uncached: e.uncached, hitRate: e.hitRate };
    }
  }
  return { initial: initial ?? [], calls, approximate };
}

function applyOps(history: Message[], ops: readonly HistoryOp[]): Message[] {
  let out = history;
  for (const op of ops) {
    if (op.kind === 'append') out = [...out, op.message];
    else {
      const i = out.length - 1 - op.fromEnd;
      if (i < 0) out = [...out, op.message];
      else {
        out = [...out];
        out[i] = op.message;
      }
    }
  }
  return out;
}

export type ReplayOptions = {
  /** Each tool's `maxResultChars` by name, as the loop passed them. */
  toolCaps?: Record<string, number>;
  signal?: AbortSignal;
};

/** Sum of the cache numbers and the input cost over calls. */
export function totalsOf(calls: readonly { cache: CacheNumbers; fired: CompactionLayerName[]; projected: number }[]): ReplayTotals {
  const read = calls.reduce((n, c) => n + c.cache.read, 0);
  const creation = calls.reduce((n, c) => n + c.cache.creation, 0);
  const uncached = calls.reduce((n, c) => n + c.cache.uncached, 0);
  const input = read + creation + uncached;
  return {
    calls: calls.length,
    read,
    creation,
    uncached,
    hitRate: input === 0 ? 0 : read / input,
    cost: inputCost({ read, creation, uncached }),
    compactions: calls.filter((c) => c.fired.includes('auto_compact')).length,
    peak: calls.reduce((n, c) => Math.max(n, c.projected), 0),
  };
}

/**
 * Re-runs the pipeline over the recorded session under `settings` (a partial object is filled
 * with defaults). Deterministic: the same session and settings give the same result.
 */
export async function replaySession(session: RecordedSession, settingsInput: ContextSettings | ContextSettingsInput, opts: ReplayOptions = {}): Promise<ReplayResult> {
  const settings = parseContextSettings(settingsInput as ContextSettingsInput);
  let history = session.initial;
  let state: ContextState = emptyContextState();
  let sim = emptyCacheSim();
  let prev: PrefixRequest | undefined;
  const calls: ReplayedCall[] = [];
  for (const rec of session.calls) {
    if (opts.signal?.aborted) break;
    history = applyOps(history, rec.ops);
    const system: TextBlock[] | string = typeof rec.request.system === 'string' || rec.request.system === undefined ? (rec.request.system ?? '') : rec.request.system.map(stripMarker);
    const tools: ToolSchema[] = (rec.request.tools ?? []).map(stripMarker);
    const gen = prepareContext({
      messages: history,
      system,
      tools,
      model: rec.request.model,
      state,
      settings,
      toolCaps: opts.toolCaps ?? {},
      summarize: deterministicSummarizer,
      now: rec.ts,
      ...(rec.memory !== undefined ? { memory: rec.memory } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const layers: ReplayedLayer[] = [];
    let step = await gen.next();
    while (!step.done) {
      const ev = step.value;
      if (ev.type === 'compaction.layer') layers.push({ layer: ev.layer, fired: ev.fired, tokensBefore: ev.tokensBefore, tokensAfter: ev.tokensAfter, reason: ev.reason });
      step = await gen.next();
    }
    const prep = step.value;
    if (prep.committed) history = prep.committed;
    const current: PrefixRequest = { model: rec.request.model, ...prep.request };
    const simulated = simulateCacheUsage(sim, current);
    sim = simulated.next;
    const usage: Usage = simulated.usage;
    const recorded = recordCacheUsage(prep.nextState, usage, { ...(prev ? { prev } : {}), current });
    state = recorded.state;
    prev = current;
    layers.sort((a, b) => LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer));
    calls.push({
      turn: rec.turn,
      layers,
      fired: layers.filter((l) => l.fired).map((l) => l.layer),
      projected: prep.tokens.projected,
      truth: prep.tokens.truth,
      window: prep.tokens.window,
      threshold: prep.tokens.threshold,
      overWindow: prep.tokens.projected > prep.tokens.window,
      cache: { read: recorded.event.read, creation: recorded.event.creation, uncached: recorded.event.uncached, hitRate: recorded.event.hitRate },
      breakDiff: recorded.event.breakDiff,
    });
  }
  return { settings, calls, totals: totalsOf(calls) };
}

/** The recorded run's own totals (its cache.stats), for comparison with a replay. */
export function recordedTotals(session: RecordedSession): ReplayTotals {
  return totalsOf(
    session.calls.map((c) => ({ cache: c.cache ?? { read: 0, creation: 0, uncached: 0, hitRate: 0 }, fired: c.fired, projected: c.projected ?? 0 })),
  );
}

/** Where two replays differ: per call, the layers that fire in one but not the other. */
export function firingDiff(a: readonly { fired: CompactionLayerName[] }[], b: readonly { fired: CompactionLayerName[] }[]): { call: number; added: CompactionLayerName[]; removed: CompactionLayerName[] }[] {
  const out: { call: number; added: CompactionLayerName[]; removed: CompactionLayerName[] }[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const fa = a[i]?.fired ?? [];
    const fb = b[i]?.fired ?? [];
    const added = fb.filter((l) => !fa.includes(l));
    const removed = fa.filter((l) => !fb.includes(l));
    if (added.length || removed.length) out.push({ call: i, added, removed });
  }
  return out;
}

/** `maxResultChars` of the built-in tools by name: the caps the loop handed to budget reduction. */
export function builtinToolCaps(tools: readonly { name: string; maxResultChars: number }[]): Record<string, number> {
  return Object.fromEntries(tools.map((t) => [t.name, t.maxResultChars]));
}
