/**
 * What a learner would notice about a run, one line each: the transitions, who decided each
 * call and at which stage, the tools offered, the compaction layers that fired, a broken cache
 * prefix, a divergence, and the exit. A lesson's "now try" names lines of it (`nowTry.expect`),
 * so the course test checks the claim against the variant's actual run.
 */
import type { TraceEvent } from '../harness/trace.ts';

export function runSignature(log: readonly TraceEvent[]): string[] {
  return log.flatMap((e) => {
    if (e.type === 'transition') return [`transition ${e.reason}`];
    if (e.type === 'permission.decision') return [`${e.name} ${e.decision} at ${e.stage}`];
    if (e.type === 'model.request' && e.attempt === 1) return [`tools ${e.request.tools?.map((t) => t.name).join(',') ?? ''}`];
    if (e.type === 'compaction.layer' && e.fired) return [`${e.layer} fired at turn ${e.turn}`];
    if (e.type === 'cache.stats' && e.breakDiff) return ['prefix broke'];
    if (e.type === 'replay.diverged') return ['replay diverged'];
    if (e.type === 'run.end' && e.agentId === 'main') return [`exit ${e.reason}`];
    return [];
  });
}

/** Whether signature line `line` is what claim `claim` names (itself, or it followed by more words). */
export function claimMatches(claim: string, line: string): boolean {
  return line === claim || line.startsWith(`${claim} `);
}
