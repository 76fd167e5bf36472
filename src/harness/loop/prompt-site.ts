/**
 * The loop's prompt call site, once per run: SessionStart (for a new, resumed or forked session)
 * and UserPromptSubmit hooks may add context beside the prompt, block it, or stop the run.
 */
import type { TextBlock } from '../messages.ts';
import { textOf } from '../messages.ts';
import type { TraceEvent } from '../trace.ts';
import type { RunEmitter } from './emitter.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import { instructionsLoaded } from './session-file-hooks.ts';
import type { LoopInput, LoopState, RunResult } from './types.ts';

/** Yields the hooks' events; returns the state to loop on, or the run's result when it ends here. */
export async function* promptSite(
  input: LoopInput,
  state: LoopState,
  emit: RunEmitter,
  hooks: HookSiteEnv,
): AsyncGenerator<TraceEvent, { state: LoopState } | { done: RunResult }> {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'user') return { state };
  const buffered: TraceEvent[] = [];
  const fire = (payload: Parameters<typeof fireHook>[0]) => drainInto(fireHook(payload, hooks), (e) => buffered.push(emit.stamp(e)));
  const extra: TextBlock[] = [];

  if (input.sessionStart && input.memoryInjected) {
    for await (const e of instructionsLoaded(input.memoryInjected.files, hooks)) yield emit.stamp(e);
  }
  if (input.sessionStart) {
    const o = await fire({ event: 'SessionStart', source: input.sessionStart, model: input.model });
    yield* buffered.splice(0);
    if (o?.additionalContext) extra.push({ type: 'text', text: `SessionStart hook context:\n${o.additionalContext}` });
    if (o?.stopRun) return { done: yield* emit.exit('hook_stopped', state, undefined, o.stopRun.reason) };
  }
  const o = await fire({ event: 'UserPromptSubmit', prompt: textOf(last) });
  yield* buffered.splice(0);
  if (o?.block) {
    // The blocked prompt never enters the history.
    const dropped = { ...state, messages: state.messages.slice(0, -1) };
    return { done: yield* emit.exit('prompt_blocked', dropped, undefined, `A UserPromptSubmit hook blocked the prompt: ${o.reason ?? 'no reason given'}`) };
  }
  if (o?.stopRun) return { done: yield* emit.exit('hook_stopped', state, undefined, o.stopRun.reason) };
  if (o?.additionalContext) extra.push({ type: 'text', text: `UserPromptSubmit hook context:\n${o.additionalContext}` });
  if (extra.length === 0) return { state };
  const u = emit.addUser(state.messages, extra, 'meta');
  yield u.event;
  return { state: { ...state, messages: u.messages } };
}
