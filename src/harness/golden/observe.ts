/**
 * What one tool call did, read from the trace: the same function records a golden case from a
 * session and observes a re-run, so both sides are measured alike.
 */
import type { TraceEvent } from '../trace.ts';
import type { GoldenObserved } from './case.ts';

const callIdOf = (input: unknown): string | undefined =>
  input !== null && typeof input === 'object' && typeof (input as Record<string, unknown>).tool_use_id === 'string' ? ((input as Record<string, unknown>).tool_use_id as string) : undefined;

/** The call `toolUseId` in `events`, or null when the trace has no result for it (yet). */
export function observeCall(events: readonly TraceEvent[], toolUseId: string): GoldenObserved | null {
  let decision: GoldenObserved['decision'] | null = null;
  let stage = '';
  let asked = false;
  const hooks: GoldenObserved['hooks'] = [];
  let result: { content: string; isError: boolean } | null = null;
  for (const e of events) {
    if (e.type === 'permission.prompt' && e.toolUseId === toolUseId) asked = true;
    else if (e.type === 'permission.decision' && e.toolUseId === toolUseId) {
      decision = e.decision;
      stage = e.stage;
    } else if (e.type === 'hook.run' && callIdOf(e.input) === toolUseId) hooks.push({ event: e.event, decision: e.decision ?? 'none' });
    else if (e.type === 'tool.result' && e.toolUseId === toolUseId) result = { content: e.content, isError: e.isError };
  }
  if (!result) return null;
  // A call that failed validation never reaches the pipeline: say so rather than inventing a stage.
  if (decision === null) return { decision: 'deny', stage: 'validate', hooks, ...result };
  // Decided at the prompt (by a person, or denied headless because nobody is there): the pipeline asked.
  const reachedPrompt = asked || stage === 'prompt';
  return { decision: reachedPrompt ? 'ask' : decision, stage: reachedPrompt ? 'prompt' : stage, hooks, ...result };
}

/** The tool calls of a trace that can become golden cases (they have a result), newest last. */
export function recordableCalls(events: readonly TraceEvent[]): { toolUseId: string; name: string; input: unknown; seq: number; agentId: string }[] {
  const done = new Set(events.filter((e) => e.type === 'tool.result').map((e) => (e as { toolUseId: string }).toolUseId));
  return events.flatMap((e) => (e.type === 'tool.proposed' && done.has(e.toolUseId) ? [{ toolUseId: e.toolUseId, name: e.name, input: e.input, seq: e.seq, agentId: e.agentId }] : []));
}
