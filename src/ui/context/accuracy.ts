/**
 * How good the chars/4 estimate is: for the latest model call, the estimate beside what the API
 * reported in `usage` (input + cache reads + cache writes) and, when asked for, what `count_tokens`
 * said. With a scripted model the usage numbers are themselves simulated, and the view says so.
 */
import type { EventOf, TraceEvent } from '../../harness/index.ts';
import { actualInputTokens, compareEstimate, type EstimateComparison } from '../../harness/context/index.ts';

export type EstimateAccuracy = {
  estimate: number;
  /** From the reply's usage; `simulated` when the model client is scripted. */
  usage?: EstimateComparison & { simulated: boolean };
  /** From `count_tokens`, when the run asked for exact counts. */
  counted?: EstimateComparison;
  countError?: string;
};

export function estimateAccuracy(events: readonly TraceEvent[]): EstimateAccuracy | null {
  let assembled: EventOf<'context.assembled'> | undefined;
  let response: EventOf<'model.response'> | undefined;
  let counted: EventOf<'context.counted'> | undefined;
  let scripted = false;
  for (const e of events) {
    if (e.type === 'run.start') scripted = e.modelClient === 'scripted';
    else if (e.type === 'context.assembled') {
      assembled = e;
      response = undefined;
      counted = undefined;
    } else if (e.type === 'model.response') response = e;
    else if (e.type === 'context.counted') counted = e;
  }
  if (!assembled) return null;
  const out: EstimateAccuracy = { estimate: assembled.total };
  if (response) out.usage = { ...compareEstimate(assembled.total, actualInputTokens(response.usage)), simulated: scripted };
  if (counted?.actual != null) out.counted = compareEstimate(counted.estimate, counted.actual);
  else if (counted?.error) out.countError = counted.error;
  return out;
}

/** `+3.2 %` / `−0.5 %`: the estimate's error relative to the API's number. */
export function errorText(c: EstimateComparison): string {
  const pct = c.relativeError * 100;
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${sign}${Math.abs(pct).toFixed(1)} %`;
}
