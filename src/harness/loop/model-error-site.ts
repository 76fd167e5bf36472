/**
 * The loop's model-error call site: a model call that failed either ends the run or continues it
 * with something changed — aborted (keep what the user saw, minus half-made tool calls), a wait
 * longer than the run allows (stop, saying so), wait and retry within the budget (`model_retry`),
 * prompt too long (summarise once per turn and retry: `reactive_compact_retry`), switch to the
 * fallback model once (overloaded past the retries, or not found: `model_fallback`), or give up.
 */
import type { ContextState } from '../context/state.ts';
import type { ContentBlock, Message, Usage } from '../messages.ts';
import type { Clock, ModelError } from '../ports.ts';
import type { TraceEvent } from '../trace.ts';
import type { ContextSite } from './context-site.ts';
import { continueWith } from './continue-with.ts';
import type { RunEmitter } from './emitter.ts';
import { planRetry } from './retry-policy.ts';
import { reattachTodos } from './todo-reattach.ts';
import type { LoopBudgets, LoopState, RunResult } from './types.ts';

export type ModelErrorEnv = {
  emit: RunEmitter;
  clock: Clock;
  signal: AbortSignal;
  budgets: LoopBudgets;
  context: ContextSite;
  hasTodoTool: boolean;
  /** The model to switch to when the run's model is overloaded past its retries or not found. */
  fallbackModel?: string;
};

/** Where the failed call stood: the history it was sent with, its turn and attempt, the usage and context state after it. */
export type FailedCall = { messages: Message[]; turn: number; attempt: number; usage: Usage; context: ContextState };

/** Yields the error's events; returns the state to retry with, or the run's result when it ends here. */
export async function* modelErrorSite(
  failure: { error: ModelError; partial: ContentBlock[] },
  state: LoopState,
  call: FailedCall,
  env: ModelErrorEnv,
): AsyncGenerator<TraceEvent, { state: LoopState } | { done: RunResult }> {
  const { emit, signal, budgets } = env;
  const { error } = failure;
  const { messages, turn, attempt, usage } = call;
  const ended = { ...state, messages, turn, usage, context: call.context };
  if (error.kind === 'aborted' || signal.aborted) {
    // Keep what the user already saw, minus half-made tool calls that cannot be answered.
    const kept = failure.partial.filter((b) => b.type !== 'tool_use');
    let msgs = messages;
    if (kept.length > 0) {
      const a = emit.append(messages, { role: 'assistant', content: kept }, 'assistant');
      msgs = a.messages;
      yield a.event;
    }
    return { done: yield* emit.exit('aborted', { ...ended, messages: msgs }, undefined, 'Stopped by the user.') };
  }
  const retry = planRetry(error, state.modelRetries, budgets);
  if (retry.kind === 'too_long') {
    yield emit.stamp({ type: 'model.error', error: retry.error, attempt });
    return { done: yield* emit.exit('model_error', ended, retry.error, `${error.kind}: the server asked for a longer wait than this run allows`) };
  }
  if (retry.kind === 'wait') {
    yield emit.stamp({ type: 'model.error', error, attempt, retryInMs: retry.delayMs });
    try {
      await env.clock.sleep(retry.delayMs, signal);
    } catch {
      return { done: yield* emit.exit('aborted', ended, undefined, 'Stopped by the user while waiting to retry.') };
    }
    const detail = `retry ${state.modelRetries + 1} of ${retry.budget} after ${error.kind}`;
    return { state: yield* continueWith(emit, state, { messages, turn, usage, context: call.context, modelRetries: state.modelRetries + 1 }, 'model_retry', detail) };
  }
  if (error.kind === 'prompt_too_long' && !state.reactiveCompactUsed) {
    // Summarise and retry once per turn.
    yield emit.stamp({ type: 'model.error', error, attempt });
    const compacted = yield* env.context.assemble(messages, call.context, true);
    if (compacted.compaction && compacted.committed) {
      const { messages: committed } = yield* reattachTodos(emit, state, env.hasTodoTool, compacted.committed);
      const detail = `summarised ${compacted.compaction.messagesBefore} messages into ${compacted.compaction.messagesAfter}`;
      return { state: yield* continueWith(emit, state, { messages: committed, turn, usage, context: compacted.nextState, reactiveCompactUsed: true }, 'reactive_compact_retry', detail) };
    }
    const why = `prompt too long and the compact failed: ${compacted.compactError ?? 'unknown'}`;
    return { done: yield* emit.exit('model_error', { ...ended, context: compacted.nextState }, error, why) };
  }
  yield emit.stamp({ type: 'model.error', error, attempt });
  // The fallback site: overloaded past its retries, or a model the API does not know.
  const fallback = env.fallbackModel;
  if (fallback && state.model !== fallback && (error.kind === 'overloaded' || error.kind === 'not_found')) {
    yield emit.stamp({ type: 'model.fallback', from: state.model, to: fallback, error });
    const detail = `${state.model} → ${fallback} after ${error.kind}`;
    return { state: yield* continueWith(emit, state, { messages, turn, usage, context: call.context, modelRetries: 0, model: fallback }, 'model_fallback', detail) };
  }
  const why = error.retryable ? `gave up after ${state.modelRetries} retries` : 'not retryable';
  return { done: yield* emit.exit('model_error', ended, error, `${error.kind}: ${why}`) };
}
