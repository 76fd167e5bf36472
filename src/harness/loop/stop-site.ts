/**
 * The loop's stop call site: the model ended its turn with nothing left to run. Stop hooks
 * (SubagentStop for a subagent) may stop the run or keep the model going, a bounded number of
 * times (`stop_hook_blocking`); otherwise facts the person asked to keep go to the memory store
 * and the run completes.
 */
import { rememberExchange } from '../memory/remember.ts';
import type { Message } from '../messages.ts';
import { textOf } from '../messages.ts';
import type { TraceEvent } from '../trace.ts';
import { continueWith } from './continue-with.ts';
import type { RunEmitter } from './emitter.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import { stopHookFeedback } from './meta-messages.ts';
import type { LoopBudgets, LoopDeps, LoopState, RunResult } from './types.ts';

export type StopSiteEnv = { emit: RunEmitter; hooks: HookSiteEnv; budgets: LoopBudgets; deps: Pick<LoopDeps, 'subagent' | 'memoryStore' | 'memoryModel' | 'ids' | 'clock'> };

/** `state` is the run after this reply (its `transition` is why the reply was asked for). */
export async function* stopSite(state: LoopState, assistant: Message, env: StopSiteEnv): AsyncGenerator<TraceEvent, { state: LoopState } | { done: RunResult }> {
  const { emit, hooks, budgets, deps } = env;
  const stopHookActive = state.transition?.reason === 'stop_hook_blocking';
  const buffered: TraceEvent[] = [];
  const stop = await drainInto(
    fireHook(
      deps.subagent
        ? { event: 'SubagentStop', stopHookActive, agentId: emit.agentId, agentType: deps.subagent.agentType }
        : { event: 'Stop', stopHookActive, lastAssistantMessage: textOf(assistant) },
      hooks,
    ),
    (e) => buffered.push(emit.stamp(e)),
  );
  yield* buffered;
  if (stop?.stopRun) return { done: yield* emit.exit('hook_stopped', state, undefined, stop.stopRun.reason) };
  if (stop?.block && state.stopHookBlocks < budgets.stopHookBlocks && !hooks.signal.aborted) {
    const u = emit.addUser(state.messages, [{ type: 'text', text: stopHookFeedback(stop.reason) }], 'meta');
    yield u.event;
    const patch = { messages: u.messages, outputRecoveries: 0, emptyRetryUsed: false, stopHookBlocks: state.stopHookBlocks + 1 };
    return { state: yield* continueWith(emit, state, patch, 'stop_hook_blocking', `block ${state.stopHookBlocks + 1} of ${budgets.stopHookBlocks}`) };
  }
  const why = stop?.block ? `a Stop hook asked to continue, but its budget of ${budgets.stopHookBlocks} is spent` : undefined;
  if (deps.memoryStore) {
    // Facts the person asked to keep ("remember: …") go to the memory store for later sessions.
    const extracted = await rememberExchange({ store: deps.memoryStore, messages: state.messages, ids: deps.ids, now: deps.clock.now() });
    if (extracted.added.length > 0 || extracted.problems.length > 0) yield emit.stamp(extracted);
    // Model-written memories: a bounded call asks what else is worth keeping; always reported, it cost a call.
    if (deps.memoryModel && !deps.subagent && !hooks.signal.aborted) {
      const m = deps.memoryModel;
      yield emit.stamp(await rememberExchange({ store: deps.memoryStore, messages: state.messages, ids: deps.ids, now: deps.clock.now(), model: { client: m.client, model: m.model, signal: hooks.signal } }));
    }
  }
  return { done: yield* emit.exit('completed', state, undefined, why) };
}
