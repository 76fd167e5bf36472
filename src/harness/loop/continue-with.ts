/**
 * The one way the loop continues: the next iteration's state is this one with only `patch`
 * changed, and `transition` says why (reported as a `transition` event). Each continue site then
 * says only what changes and why; README.md lists them with their budgets.
 */
import type { TraceEvent, TransitionReason } from '../trace.ts';
import type { RunEmitter } from './emitter.ts';
import type { LoopState } from './types.ts';

/** A normal turn ends every streak: max_tokens recoveries, the empty-reply nudge, Stop hook blocks. */
export const STREAKS_RESET = { outputRecoveries: 0, emptyRetryUsed: false, stopHookBlocks: 0 } as const satisfies Partial<LoopState>;

export function* continueWith(emit: RunEmitter, state: LoopState, patch: Partial<LoopState>, reason: TransitionReason, detail?: string): Generator<TraceEvent, LoopState> {
  const next: LoopState = { ...state, ...patch, transition: { reason, ...(detail ? { detail } : {}) } };
  yield emit.next(reason, detail);
  return next;
}
