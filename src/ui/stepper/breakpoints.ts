/**
 * Breakpoints: which events stop a Continue. Three kinds, as a scenario stores them — an event
 * type (any `permission.stage`, `compaction.layer`, `hook.run` …), a transition reason, a tool name
 * (stops at that tool's `tool.proposed`, before anything about the call is decided).
 */
import type { TraceEvent, TraceEventType } from '../../harness/index.ts';
import type { ScenarioBreakpoints } from '../../scenarios/schema-v1.ts';
import { TRANSITION_REASONS as REASONS } from '../../scenarios/vocabulary.ts';

export type Breakpoints = ScenarioBreakpoints;
export type BreakpointKind = 'event' | 'transition' | 'tool';

/** The transition reasons a scenario may name (the list the schema checks them against, so the two never drift). */
export const TRANSITION_REASONS: readonly string[] = REASONS;

/** Event types offered as checkboxes, in loop order; the ones worth stopping at. */
export const EVENT_KINDS: readonly (TraceEventType | `${string}.*`)[] = [
  'run.start',
  'turn.start',
  'context.assembled',
  'compaction.layer',
  'model.request',
  'model.response',
  'model.error',
  'message.appended',
  'tool.proposed',
  'permission.stage',
  'permission.prompt',
  'permission.decision',
  'hook.run',
  'tool.started',
  'tool.result',
  'sandbox.changed',
  'memory.injected',
  'settings.read',
  'transition',
  'run.end',
  // agents
  'skill.loaded',
  'task.created',
  'task.updated',
  'background.notification',
  'interrupt.received',
  // teams: `mailbox.*` stops at every mailbox event (sent, read, a recovered lock)
  'mailbox.*',
  'agent.state',
  'task.claimed',
  'protocol.timeout',
  // teams across tabs: a tab joined, nobody joined in time, a tab went silent, a forged note refused; and the team's end
  'teammate.joined',
  'teammate.join_timeout',
  'teammate.lost',
  'teammate.wire_dropped',
  'team.ended',
  // isolated workspaces: a refused overwrite
  'workspace.conflict',
];

/** The tools a scenario runs with (the built-ins' names), offered as checkboxes. */
export const TOOL_NAMES: readonly string[] = [
  ...['bash', 'read', 'write', 'edit', 'glob', 'grep', 'revert'],
  // agents (opt-in per scenario)
  ...['skill', 'task_create', 'task_list', 'task_get', 'task_update', 'bash_output', 'kill_shell'],
  ...['spawn_teammate', 'send_message', 'read_inbox'],
];

/** Whether an event-type breakpoint names this type: exactly, or as a family (`mailbox.*`). */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

export const emptyBreakpoints = (): Breakpoints => ({ eventTypes: [], transitions: [], tools: [] });

export function countBreakpoints(bp: Breakpoints): number {
  return bp.eventTypes.length + bp.transitions.length + bp.tools.length;
}

/** A breakpoint that matched, for "stopped at …". */
export type BreakpointHit = { kind: BreakpointKind; value: string; label: string };

/** The first breakpoint `event` matches, or null. */
export function matchBreakpoint(bp: Breakpoints, event: TraceEvent): BreakpointHit | null {
  const byType = bp.eventTypes.find((p) => typeMatches(p, event.type));
  if (byType) {
    const detail = event.type === 'permission.stage' ? ` (${event.stage})` : event.type === 'compaction.layer' ? ` (${event.layer})` : '';
    return { kind: 'event', value: byType, label: `event ${event.type}${detail}` };
  }
  if (event.type === 'transition' && (bp.transitions as string[]).includes(event.reason)) {
    return { kind: 'transition', value: event.reason, label: `transition ${event.reason}` };
  }
  if (event.type === 'tool.proposed' && bp.tools.includes(event.name)) {
    return { kind: 'tool', value: event.name, label: `tool ${event.name}` };
  }
  return null;
}

/** `bp` with `value` of `kind` switched on or off (a new object: the state is immutable). */
export function toggleBreakpoint(bp: Breakpoints, kind: BreakpointKind, value: string): Breakpoints {
  const flip = <T extends string>(list: T[], v: T) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  if (kind === 'event') return { ...bp, eventTypes: flip(bp.eventTypes, value) };
  if (kind === 'tool') return { ...bp, tools: flip(bp.tools, value) };
  if (!TRANSITION_REASONS.includes(value)) return bp;
  return { ...bp, transitions: flip(bp.transitions, value as Breakpoints['transitions'][number]) };
}
