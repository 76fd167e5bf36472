/** Token usage over every run in the session, from the trace alone, in total and per agent. */
import type { TraceEvent, Usage } from '../../harness/index.ts';
import { addUsage, emptyUsage } from '../../harness/messages.ts';

/**
 * Usage per agent id (`main` and each subagent), summed over that agent's runs. Each run reports a
 * running total; an agent's total is the sum of each of its runs' latest one. The stream
 * interleaves agents, so every agent's runs are followed on their own.
 */
export function deriveAgentUsage(events: readonly TraceEvent[]): Map<string, Usage> {
  const perRun = new Map<string, Usage[]>();
  for (const e of events) {
    const runs = perRun.get(e.agentId) ?? [];
    if (e.type === 'run.start') {
      runs.push(emptyUsage());
      perRun.set(e.agentId, runs);
    } else if (e.type === 'model.response' && runs.length) runs[runs.length - 1] = e.totalUsage;
    else if (e.type === 'run.end' && runs.length) runs[runs.length - 1] = e.usage;
  }
  return new Map([...perRun].map(([id, runs]) => [id, runs.reduce((a, b) => addUsage(a, b), emptyUsage())]));
}

/** Every agent's usage together: what the session cost. */
export function deriveUsage(events: readonly TraceEvent[]): Usage {
  return [...deriveAgentUsage(events).values()].reduce((a, b) => addUsage(a, b), emptyUsage());
}
