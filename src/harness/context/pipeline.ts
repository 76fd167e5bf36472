/**
 * `prepareContext`: everything between the stored history and the request actually sent. Runs
 * the five layers cheap → expensive on the true history, yields one `compaction.layer` event per
 * layer and a `context.assembled` event, and returns the request parts (with cache breakpoints),
 * the next `ContextState`, and — when a layer rewrote the stored history — the new history
 * (`committed`), which the caller must adopt as its truth.
 */
import type { Message, TextBlock, ToolSchema, Usage } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import type { CacheBreak, CompactionChange, TraceEventBody } from '../trace.ts';
import { anchorBeforeTrimmable, cacheBreakDiff, cacheStats, placeBreakpoints, type RequestParts } from './cache.ts';
import { isReference } from './references.ts';
import { toolNamesById } from './history-shape.ts';
import { autoCompactLayer } from './layer-auto-compact.ts';
import { budgetLayer } from './layer-budget.ts';
import { writeCollapseSummaries, type CollapseSummarize } from './collapse-model.ts';
import { collapsedHeader, collapseLayer, projectCollapses, validCollapses } from './layer-collapse.ts';
import { microcompactLayer } from './layer-microcompact.ts';
import { snipLayer } from './layer-snip.ts';
import type { LayerInput } from './layer.ts';
import type { PrefixRequest } from './prefix.ts';
import { prefixKeyOf, systemBlocks } from './prefix.ts';
import { parseContextSettings, type ContextSettings, type ContextSettingsInput } from './settings.ts';
import type { ContextState } from './state.ts';
import type { Summarize } from './summarizer.ts';
import { limitAfter, type SummaryBudget, type SummaryLimit } from './summary-fit.ts';
import { blockTokens, ESTIMATOR_NAME, estimateTextTokens, messageTokens, requestTokens, BLOCK_OVERHEAD_TOKENS } from './tokens.ts';

export type PrepareContextArgs = {
  /** The stored history (the truth), ending with the user message about to be answered. */
  messages: Message[];
  system: string | TextBlock[];
  tools: ToolSchema[];
  /**
   * The last this-many `tools` stay last, in their order, after the (sorted) rest: deferred tools
   * the model loaded mid-run (`loop/tool-pool.ts`), appended so a load never reorders the list.
   */
  appendedTools?: number;
  /** Memory text (CLAUDE.md and selected memories), sent as the first block of the first user message. */
  memory?: string;
  /** Model id: part of the cache key, so a change is a cache break. */
  model?: string;
  state: ContextState;
  /** Parsed settings or a partial object (defaults fill the rest). */
  settings?: ContextSettings | ContextSettingsInput;
  /** Each tool's `maxResultChars`, by name (non-finite: exempt from budget reduction). */
  toolCaps?: Record<string, number>;
  /** Writes the auto-compact summary; without it auto-compact cannot fire. */
  summarize?: Summarize;
  /**
   * Writes new collapse summaries with a model (`collapse.summarizer: 'model'`); absent (scripted
   * runs, tests, benches): the deterministic summary.
   */
  collapseSummarize?: CollapseSummarize;
  /**
   * What is left of the run's dollar ceiling, when it has one: a summary request (collapse's,
   * auto-compact's) must fit it as well as the window before it is sent (`summary-fit.ts`).
   */
  summaryBudget?: SummaryBudget;
  signal?: AbortSignal;
  /** Clock time of this call (for the cache TTL rule); omit to skip that rule. */
  now?: number;
  /** `reactive` forces a compact (the API said "prompt is too long"). */
  trigger?: 'auto' | 'reactive';
};

export type CompactionInfo = {
  trigger: 'auto' | 'reactive';
  summary: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
};

export type PreparedContext = {
  /** system + tools + projected messages, breakpoints placed; add model and max_tokens to send. */
  request: RequestParts;
  nextState: ContextState;
  /** The new stored history when a layer rewrote it (budget, snip, microcompact, auto-compact). */
  committed?: Message[];
  /** Set when auto-compact (or a reactive compact) replaced the history. */
  compaction?: CompactionInfo;
  /** Set when a reactive compact was asked for and could not be done. */
  compactError?: string;
  tokens: { projected: number; truth: number; window: number; threshold: number };
};

function resolveSettings(s: PrepareContextArgs['settings']): ContextSettings {
  return parseContextSettings((s ?? {}) as ContextSettingsInput);
}

/** The projected messages with the memory text as the first block of the first message. */
function withMemory(messages: Message[], memory: string | undefined): Message[] {
  if (!memory || messages.length === 0) return messages;
  const [first, ...rest] = messages;
  return [{ role: first!.role, content: [{ type: 'text', text: memory }, ...blocksOf(first!)] }, ...rest];
}

/** Where the anchor breakpoint goes (see `placeBreakpoints`), when microcompact could still trim. */
function anchorFor(projected: readonly Message[], settings: ContextSettings): { anchor?: number } {
  if (!settings.cache.anchorBreakpoint || !settings.microcompact.enabled) return {};
  const anchor = anchorBeforeTrimmable(projected, settings.microcompact.minChars, isReference);
  return anchor === undefined ? {} : { anchor };
}

/**
 * The projected message holding the newest collapse summary (the end of the region a collapse just
 * rewrote: its summary is the message's last block), or undefined.
 */
function newestSummaryAt(projected: readonly Message[], changes: readonly CompactionChange[]): number | undefined {
  const fresh = changes.filter((x): x is Extract<CompactionChange, { kind: 'range_collapsed' }> => x.kind === 'range_collapsed' && x.isNew);
  const last = fresh[fresh.length - 1];
  if (!last) return undefined;
  const head = collapsedHeader(last.from, last.to);
  const at = projected.findIndex((m) => blocksOf(m).some((b) => b.type === 'text' && b.text.startsWith(head)));
  return at >= 0 ? at : undefined;
}

export async function* prepareContext(args: PrepareContextArgs): AsyncGenerator<TraceEventBody, PreparedContext> {
  const settings = resolveSettings(args.settings);
  const system = systemBlocks(args.system);
  const head = args.tools.slice(0, args.tools.length - (args.appendedTools ?? 0));
  const sortedHead = settings.cache.sortTools ? [...head].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : head;
  const tools = [...sortedHead, ...args.tools.slice(head.length)];
  const fixed = requestTokens({ system, tools, messages: [], ...(args.memory ? { memory: args.memory } : {}) });
  let memoOf: readonly Message[] | null = null;
  let memoTokens = 0;
  const tokensOf = (msgs: readonly Message[]) => {
    if (msgs !== memoOf) {
      memoOf = msgs;
      memoTokens = msgs.reduce((n, m) => n + messageTokens(m), 0);
    }
    return fixed.total + memoTokens;
  };
  const window = settings.windowTokens;
  const autoLine = Math.floor(settings.autoCompactThreshold * window);
  const trigger = args.trigger ?? 'auto';
  const signal = args.signal ?? new AbortController().signal;

  let state: ContextState = { ...args.state, calls: args.state.calls + 1 };
  let truth = args.messages;
  let committed = false;
  let prefixChanging = false;
  const prefixKey = prefixKeyOf(args.tools, tools, args.model ?? '', system, settings.cache.sortTools, args.appendedTools ?? 0);
  if (state.lastPrefixKey !== null && state.lastPrefixKey !== prefixKey) prefixChanging = true;
  const base = (): LayerInput => ({ messages: truth, state, settings, tokensOf });
  const adopt = (out: { messages: Message[]; state: ContextState; firstChanged?: number; event: { committed: boolean } }) => {
    state = out.state;
    if (out.event.committed) {
      // A change before the newest message mutates the middle: the cached prefix breaks there.
      if (out.firstChanged !== undefined && out.firstChanged < truth.length - 1) prefixChanging = true;
      truth = out.messages;
      committed = true;
    }
  };

  // 1. Budget reduction
  const b = budgetLayer({ ...base(), toolCaps: args.toolCaps ?? {} });
  adopt(b);
  yield b.event;

  // 2. Snip
  const s = snipLayer(base());
  adopt(s);
  yield s.event;

  // 3. Microcompact: under pressure when a later layer would fire on the current projection.
  const later = [settings.collapse.enabled ? settings.collapse.threshold : 1, settings.autoCompact.enabled ? settings.autoCompactThreshold : 1];
  const pressureLine = Math.floor(Math.min(...later) * window);
  const projectionNow = projectCollapses(truth, validCollapses(truth, state.collapses));
  const projectedNow = tokensOf(projectionNow);
  // The anchor breakpoint sits before the oldest result a trim could change, found before this
  // call's trims: when microcompact rewrites now, the anchor is where the earlier calls wrote it.
  const anchorBeforeTrims = anchorFor(projectionNow, settings);
  const pressure = trigger === 'reactive' || ((settings.collapse.enabled || settings.autoCompact.enabled) && projectedNow >= pressureLine);
  const m = microcompactLayer({ ...base(), signals: { ...(args.now !== undefined ? { now: args.now } : {}), prefixChanging, pressure } });
  adopt(m);
  yield m.event;

  // 4. Collapse (projection only); a new range's summary written by the model when the run has one.
  const c0 = collapseLayer(base());
  // A summary request must fit the window and what is left of the budget (summary-fit.ts).
  const limit: SummaryLimit = { windowTokens: window, ...(args.summaryBudget ? { budget: args.summaryBudget } : {}) };
  const c =
    args.collapseSummarize && settings.collapse.summarizer === 'model'
      ? await writeCollapseSummaries({ messages: truth, out: c0, summarize: args.collapseSummarize, findings: settings.collapse.findings, signal, tokensOf, limit })
      : c0;
  state = c.state;
  let projected = c.messages;
  const collapseIsNew = c.event.changes.some((x) => x.kind === 'range_collapsed' && x.isNew);
  yield c.event;

  // 5. Auto-compact
  const acLimit = limitAfter(limit, c.event.summaryCalls ?? []);
  const ac = autoCompactLayer({ ...base(), projected, trigger, ...(args.summarize ? { summarize: args.summarize } : {}), signal, ...(acLimit ? { limit: acLimit } : {}) });
  let step = await ac.next();
  while (!step.done) {
    yield step.value;
    step = await ac.next();
  }
  const a = step.value;
  adopt(a);
  if (a.compaction) projected = truth;
  yield a.event;

  // Assemble: memory, breakpoints, per-part counts.
  const names = toolNamesById(projected);
  const perMessage = projected.map(messageTokens);
  const toolResults: { toolUseId: string; name?: string; messageIndex: number; tokens: number }[] = [];
  projected.forEach((msg, messageIndex) => {
    for (const blk of blocksOf(msg)) {
      if (blk.type !== 'tool_result') continue;
      const name = names.get(blk.tool_use_id);
      toolResults.push({ toolUseId: blk.tool_use_id, ...(name ? { name } : {}), messageIndex, tokens: blockTokens(blk) });
    }
  });
  const withMem = withMemory(projected, args.memory);
  // The first request after a rewrite: a breakpoint at the end of the rewritten region, else the microcompact anchor.
  const region = settings.cache.regionBreakpoint ? (a.compaction ? 0 : collapseIsNew ? newestSummaryAt(projected, c.event.changes) : undefined) : undefined;
  const anchor = region !== undefined ? { anchor: region } : collapseIsNew || a.compaction ? anchorFor(projected, settings) : anchorBeforeTrims;
  const parts: RequestParts = settings.cache.enabled
    ? placeBreakpoints({ system, tools, messages: withMem }, { previousTurn: settings.cache.previousTurnBreakpoint, ...anchor })
    : { system, tools, messages: withMem };
  const projectedTotal = tokensOf(projected);
  const truthTotal = tokensOf(truth === projected ? projected : truth);
  const memoryTokens = args.memory ? estimateTextTokens(args.memory) + BLOCK_OVERHEAD_TOKENS : 0;
  yield {
    type: 'context.assembled',
    parts: { system: fixed.system, tools: fixed.tools, messages: projectedTotal - fixed.total, memory: memoryTokens },
    total: projectedTotal,
    messageCount: parts.messages.length,
    perMessage,
    toolResults,
    truthTotal,
    window,
    threshold: { fraction: settings.autoCompactThreshold, tokens: autoLine },
    estimator: ESTIMATOR_NAME,
  };

  const nextState: ContextState = {
    ...state,
    lastPrefixKey: prefixKey,
    lastCallAt: args.now ?? state.lastCallAt,
    lastCallBrokePrefix: prefixChanging || collapseIsNew || a.compaction !== undefined,
  };
  return {
    request: parts,
    nextState,
    ...(committed ? { committed: truth } : {}),
    ...(a.compaction ? { compaction: a.compaction } : {}),
    ...(trigger === 'reactive' && !a.compaction ? { compactError: a.error ?? a.event.reason } : {}),
    tokens: { projected: projectedTotal, truth: truthTotal, window, threshold: autoLine },
  };
}

/**
 * For the loop's `reactive_compact_retry` site ("prompt is too long"; once per turn): the same
 * pipeline with auto-compact forced. Check `compaction` (done) or `compactError` (give up).
 */
export function reactiveCompact(args: Omit<PrepareContextArgs, 'trigger'>): AsyncGenerator<TraceEventBody, PreparedContext> {
  return prepareContext({ ...args, trigger: 'reactive' });
}

/**
 * After a model response: the `cache.stats` event body (with what broke the prefix, when `prev`
 * — the previous request sent — is given) and the state with the cache reads rolled forward, which
 * the microcompact deferral rule compares on the next call.
 */
export function recordCacheUsage(
  state: ContextState,
  usage: Pick<Usage, 'input_tokens'> & Partial<Usage>,
  requests: { prev?: PrefixRequest; current?: PrefixRequest } = {},
): { state: ContextState; event: Extract<TraceEventBody, { type: 'cache.stats' }> } {
  const st = cacheStats(usage);
  const breakDiff: CacheBreak | null = requests.prev && requests.current ? cacheBreakDiff(requests.prev, requests.current) : null;
  return {
    state: { ...state, cacheReads: { previous: state.cacheReads.last, last: st.read } },
    event: { type: 'cache.stats', read: st.read, creation: st.creation, uncached: st.uncached, hitRate: st.hitRate, breakDiff },
  };
}
