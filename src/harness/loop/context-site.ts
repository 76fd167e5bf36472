/**
 * The loop's context call site: before each model call the five layers run on the stored
 * history (`context/pipeline.ts`); a rewritten history is announced (`history.rewritten`), the
 * compaction hooks fire around a summary, and — on request — the API counts the result exactly.
 */
import { prepareContext, reactiveCompact, type PrepareContextArgs, type PreparedContext } from '../context/pipeline.ts';
import type { ContextState } from '../context/state.ts';
import type { SummaryBudget } from '../context/summary-fit.ts';
import { modelSummarizer, type Summarize } from '../context/summarizer.ts';
import { compareEstimate } from '../context/tokens.ts';
import { rememberSummary } from '../memory/summary-memory.ts';
import type { Message, ModelRequest, ToolSchema } from '../messages.ts';
import type { TraceEvent, TraceEventBody } from '../trace.ts';
import type { RunEmitter } from './emitter.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import type { LoopDeps, LoopInput } from './types.ts';

export type ContextSite = {
  /** Runs the layers (forced compaction when `reactive`) and adopts their state as the newest. */
  assemble(messages: Message[], state: ContextState, reactive: boolean): AsyncGenerator<TraceEvent, PreparedContext>;
  /** `/compact [instructions]`: a forced summary now, PreCompact / PostCompact with trigger `manual`. */
  compactNow(messages: Message[], state: ContextState, instructions: string): AsyncGenerator<TraceEvent, PreparedContext>;
  /** `context.counted`: the API's count beside the estimate; a failed count is reported, never fatal. */
  count(request: ModelRequest, estimate: number): Promise<TraceEventBody>;
  /** The newest pipeline state, even mid-turn (`read_tool_result` reads stored originals from it). */
  latest(): ContextState;
};

export function createContextSite(opts: {
  input: LoopInput;
  deps: LoopDeps;
  emit: RunEmitter;
  hooks: HookSiteEnv;
  /** The tools of the next request (re-read each time: the pool can change mid-run, see tool-pool.ts). */
  tools: () => { schemas: ToolSchema[]; caps: Record<string, number>; appended?: number };
  initial: ContextState;
  /** What is left of the run's dollar ceiling now (absent: no ceiling); summary requests must fit it. */
  summaryBudget?: () => SummaryBudget;
}): ContextSite {
  const { input, deps, emit, hooks } = opts;
  const signal = hooks.signal;
  let latest = opts.initial;

  // Auto-compact's summary call, with PreCompact hooks first (their events pass through).
  const baseSummarize: Summarize = deps.summarize ?? modelSummarizer(deps.model, { model: input.model });
  // Set while `/compact [instructions]` runs: the hooks see trigger `manual`, a model summary follows the instructions.
  let manual: { instructions: string } | null = null;
  const summarize: Summarize = async function* (messages, sig, info) {
    yield* fireHook({ event: 'PreCompact', trigger: manual ? 'manual' : 'auto', customInstructions: manual?.instructions ?? '' }, hooks);
    const base = manual?.instructions && !deps.summarize ? modelSummarizer(deps.model, { model: input.model, customInstructions: manual.instructions }) : baseSummarize;
    const r = base(messages, sig, info);
    return Symbol.asyncIterator in r ? yield* r : await r;
  };

  async function* assemble(messages: Message[], state: ContextState, reactive: boolean): AsyncGenerator<TraceEvent, PreparedContext> {
    const args: PrepareContextArgs = {
      messages,
      system: input.system,
      tools: opts.tools().schemas,
      model: input.model,
      state,
      toolCaps: opts.tools().caps,
      ...(opts.tools().appended ? { appendedTools: opts.tools().appended } : {}),
      summarize,
      ...(deps.collapseSummarize ? { collapseSummarize: deps.collapseSummarize } : {}),
      ...(opts.summaryBudget ? { summaryBudget: opts.summaryBudget() } : {}),
      signal,
      now: deps.clock.now(),
      ...(input.context ? { settings: input.context } : {}),
      ...(input.memory ? { memory: input.memory } : {}),
    };
    const committedBy: string[] = [];
    const gen = reactive ? reactiveCompact(args) : prepareContext(args);
    let step = await gen.next();
    while (!step.done) {
      if (step.value.type === 'compaction.layer' && step.value.committed) committedBy.push(step.value.layer);
      yield emit.stamp(step.value);
      step = await gen.next();
    }
    const prep = step.value;
    latest = prep.nextState;
    if (prep.committed) {
      yield emit.stamp({ type: 'history.rewritten', messages: prep.committed, layers: committedBy, messagesBefore: messages.length });
    }
    if (prep.compaction) {
      const buffered: TraceEvent[] = [];
      await drainInto(fireHook({ event: 'PostCompact', trigger: manual ? 'manual' : 'auto', summary: prep.compaction.summary }, hooks), (e) => buffered.push(emit.stamp(e)));
      yield* buffered;
      // The summary is where this session got to: kept as a memory for the next one (memory/summary-memory.ts).
      // The main agent's only: a subagent's summary is of its own side task.
      if (deps.memoryStore && !deps.subagent && prep.committed) {
        const trigger = manual ? 'manual' : prep.compaction.trigger;
        yield emit.stamp(await rememberSummary({ store: deps.memoryStore, summary: prep.compaction.summary, trigger, turn: emit.turn, ids: deps.ids, now: deps.clock.now() }));
      }
    }
    return prep;
  }

  async function count(request: ModelRequest, estimate: number): Promise<TraceEventBody> {
    try {
      const actual = await deps.model.countTokens!(request, signal);
      const cmp = compareEstimate(estimate, actual);
      return { type: 'context.counted', estimate, actual, difference: cmp.error, relativeError: cmp.relativeError };
    } catch (e) {
      return { type: 'context.counted', estimate, actual: null, error: e instanceof Error ? e.message : String(e) };
    }
  }

  async function* compactNow(messages: Message[], state: ContextState, instructions: string): AsyncGenerator<TraceEvent, PreparedContext> {
    manual = { instructions };
    try {
      return yield* assemble(messages, state, true);
    } finally {
      manual = null;
    }
  }

  return { assemble, compactNow, count, latest: () => latest };
}
