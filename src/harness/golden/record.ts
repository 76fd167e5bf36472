/**
 * Turns one recorded tool call of a session into a golden case: its input, the project files
 * before it (the caller reads them from the session's snapshots), and what it did.
 */
import type { TraceEvent } from '../trace.ts';
import type { GoldenCase } from './case.ts';
import { observeCall } from './observe.ts';

export type RecordResult = { ok: true; case: GoldenCase } | { ok: false; error: string };

/** What the prompt answered for the call: the final decision when it was made at the prompt. */
function promptAnswerOf(events: readonly TraceEvent[], toolUseId: string): 'allow' | 'deny' | 'none' {
  const d = events.find((e) => e.type === 'permission.decision' && e.toolUseId === toolUseId);
  if (!d || d.type !== 'permission.decision' || d.stage !== 'prompt' || d.decision === 'allow') return 'allow';
  return d.decidedBy.kind === 'user' ? 'deny' : 'none';
}

function caseId(tool: string, taken: ReadonlySet<string>): string {
  const base = tool.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || 'call';
  for (let n = 1; ; n++) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

export function recordGoldenCase(o: {
  events: readonly TraceEvent[];
  toolUseId: string;
  files: Record<string, string>;
  existing: readonly GoldenCase[];
  label?: string;
}): RecordResult {
  const proposed = o.events.find((e) => e.type === 'tool.proposed' && e.toolUseId === o.toolUseId);
  if (!proposed || proposed.type !== 'tool.proposed') return { ok: false, error: `no tool call ${o.toolUseId} in this session` };
  const input = proposed.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, error: 'the call\'s input is not an object, so it cannot be replayed' };
  const observed = observeCall(o.events, o.toolUseId);
  if (!observed) return { ok: false, error: 'the call has no result yet: step until it finishes' };
  const id = caseId(proposed.name, new Set(o.existing.map((c) => c.id)));
  const summary = JSON.stringify(input);
  return {
    ok: true,
    case: {
      id,
      label: o.label ?? `${proposed.name} ${summary.length > 80 ? `${summary.slice(0, 79)}…` : summary}`,
      tool: proposed.name,
      promptAnswer: promptAnswerOf(o.events, o.toolUseId),
      input: input as Record<string, unknown>,
      files: o.files,
      expected: observed,
    },
  };
}
