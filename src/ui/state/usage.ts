/** Token usage over every run in the session, from the trace alone. */
import type { TraceEvent, Usage } from '../../harness/index.ts';
import { addUsage, emptyUsage } from '../../harness/index.ts';

export function deriveUsage(events: readonly TraceEvent[]): Usage {
  // Each run reports a running total; the session total is the sum of each run's latest one.
  const perRun: Usage[] = [];
  for (const e of events) {
    if (e.type === 'run.start') perRun.push(emptyUsage());
    else if (e.type === 'model.response' && perRun.length) perRun[perRun.length - 1] = e.totalUsage;
    else if (e.type === 'run.end' && perRun.length) perRun[perRun.length - 1] = e.usage;
  }
  return perRun.reduce((a, b) => addUsage(a, b), emptyUsage());
}
