/**
 * What every `TraceEvent` type means, why this one happened (read from its own data) and what
 * would have happened otherwise. Typed as a mapped type over `TraceEventType`, so an event type
 * added to the harness does not compile until it has an entry here: one place to add it.
 * The entries live in one file per family (`loop-`, `tool-`, `agent-`, `team-`,
 * `workspace-mcp-explanations.ts`), each typed as a `Pick` of this table; this file joins them.
 */
import type { EventOf, TraceEventType } from '../../harness/index.ts';
import type { GlossaryTerm } from './glossary.ts';
import { TEAM_EVENT_EXPLANATIONS } from './team-explanations.ts';
import { LOOP_EVENT_EXPLANATIONS } from './loop-explanations.ts';
import { TOOL_EVENT_EXPLANATIONS } from './tool-explanations.ts';
import { AGENT_EVENT_EXPLANATIONS } from './agent-explanations.ts';
import { WORKSPACE_MCP_EVENT_EXPLANATIONS } from './workspace-mcp-explanations.ts';

export type EventExplanation<T extends TraceEventType> = {
  means: string;
  /** Why this event happened here, from its own fields (which rule, threshold, budget). */
  why: (e: EventOf<T>) => string;
  otherwise: string;
  lesson: string;
  terms: GlossaryTerm[];
};

export type EventExplanations = { [T in TraceEventType]: EventExplanation<T> };

export const EVENT_EXPLANATIONS: EventExplanations = {
  ...TEAM_EVENT_EXPLANATIONS,
  ...LOOP_EVENT_EXPLANATIONS,
  ...TOOL_EVENT_EXPLANATIONS,
  ...AGENT_EVENT_EXPLANATIONS,
  ...WORKSPACE_MCP_EVENT_EXPLANATIONS,
};
