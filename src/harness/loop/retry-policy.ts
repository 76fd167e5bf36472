/**
 * Whether and how long to wait before retrying a failed model call. Pure, so the schedule is
 * exact in tests and replays (no jitter; see backoff.ts).
 *
 * - A server-requested wait (`retry-after`) is honoured up to `maxRetryAfterMs` (60 s by
 *   default). Beyond it the run stops with a model_error that names the wait the server asked
 *   for, instead of idling for an hour in a tab nobody watches.
 * - `overloaded` (529) gets its own, longer budget with a higher backoff cap — long enough to ride
 *   out a short outage (about a minute and a half by default) — because it says "try again
 *   soon", not "something is wrong". Other retryable errors keep the shorter budget.
 */
import type { ModelError } from '../ports.ts';
import { backoffMs } from './backoff.ts';
import type { LoopBudgets } from './types.ts';

export type RetryPlan =
  | { kind: 'wait'; delayMs: number; budget: number }
  /** Retrying would mean waiting longer than the ceiling: stop, with an error that says so. */
  | { kind: 'too_long'; error: ModelError }
  /** Not retryable, or the budget is spent. */
  | { kind: 'give_up' };

/** Retries allowed for this error (the overloaded budget for 529s). */
export function retryBudget(error: ModelError, budgets: LoopBudgets): number {
  return error.kind === 'overloaded' ? budgets.overloadedRetries : budgets.modelRetries;
}

export function planRetry(error: ModelError, retriesSoFar: number, budgets: LoopBudgets): RetryPlan {
  const budget = retryBudget(error, budgets);
  if (!error.retryable || retriesSoFar >= budget) return { kind: 'give_up' };
  if (error.retryAfterMs !== undefined && error.retryAfterMs > budgets.maxRetryAfterMs) {
    const asked = formatWait(error.retryAfterMs);
    // The client's note of the wait is restated here with what the run does about it: say it once.
    const fault = error.message.replace(` ${serverWaitNote(error.retryAfterMs)}`, '');
    return {
      kind: 'too_long',
      error: {
        ...error,
        retryable: false,
        message: `${fault} The server asked to wait ${asked} before retrying — longer than the ${formatWait(budgets.maxRetryAfterMs)} this run waits — so the run stopped instead of idling. Try again after ${asked}, or with another key or model.`,
      },
    };
  }
  const cap = error.kind === 'overloaded' ? budgets.overloadedMaxBackoffMs : budgets.maxBackoffMs;
  return { kind: 'wait', delayMs: error.retryAfterMs ?? backoffMs(retriesSoFar, cap), budget };
}

/** How a model client words the server's `retry-after` in an error message (only what was asked, no promise). */
export function serverWaitNote(ms: number): string {
  return `The server asked to wait ${formatWait(ms)} before retrying.`;
}

/** `45 s`, `2 min 5 s`, `1 h 0 min`. */
export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
