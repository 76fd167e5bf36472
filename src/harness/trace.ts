/**
 * `TraceEvent`: the one stream every view of the harness is built from. The loop yields these;
 * the UI renders them, the session log stores them, replays re-read them. Every event is plain
 * JSON (no class instances, no functions) so it can be persisted and shared.
 *
 * The union is open by design: each layer keeps its group of events in its own file and this
 * file joins them. The groups of the loop's core live in `trace/` (one file per family: loop,
 * model, context, tools and sandbox, permissions, hooks, memory, todos and subagents); agents,
 * teams, workspaces and MCP keep theirs beside their code. Import from here: this file is the
 * contract, the folder is how it is laid out.
 */
import type { AgentEventBody } from './agents/events.ts';
import type { TeamEventBody } from './agents/teams/events.ts';
import type { WorkspaceEventBody } from './workspace/events.ts';
import type { McpEventBody } from './mcp/events.ts';
import type { ExitReason, LoopEventBody } from './trace/loop.ts';
import type { ModelEventBody } from './trace/model.ts';
import type { ContextEventBody } from './trace/context.ts';
import type { ToolEventBody } from './trace/tools.ts';
import type { PermissionEventBody } from './trace/permissions.ts';
import type { HookEventBody } from './trace/hooks.ts';
import type { MemoryEventBody } from './trace/memory.ts';
import type { TodoSubagentEventBody } from './trace/agents.ts';

export type { ContinueReason, ExitReason, TransitionReason, MessageOrigin } from './trace/loop.ts';
export type { CompactionLayerName, CompactionChange, CacheBreak, CollapseSummaryCall, SummaryCall, SummaryFitNote } from './trace/context.ts';
export type { ToolOutputChunk, SettingsFileRead } from './trace/tools.ts';
export type { HookRef } from './trace/hooks.ts';
export type { MemoryFileInfo, MemoryChoice, MemoryLeftOut, MemoryProblem } from './trace/memory.ts';

type EventBody =
  // the loop: run start and end, turns, transitions, messages appended (trace/loop.ts)
  | LoopEventBody
  // model calls, replays diverging, the fallback model, the dollar ceiling (trace/model.ts)
  | ModelEventBody
  // context assembly, compaction layers, cache stats (trace/context.ts)
  | ContextEventBody
  // tool calls, the tool pool, the sandbox, settings read, the terminal (trace/tools.ts)
  | ToolEventBody
  // permissions (trace/permissions.ts; see src/harness/permissions/README.md)
  | PermissionEventBody
  // hooks (trace/hooks.ts; see src/harness/hooks/README.md)
  | HookEventBody
  // memory (trace/memory.ts; see src/harness/memory/README.md)
  | MemoryEventBody
  // agents: skills, task graph, background jobs, steering (see src/harness/agents/README.md)
  | AgentEventBody<ExitReason>
  // agents: teams of long-lived teammates, mailboxes, claiming (see src/harness/agents/teams/README.md)
  | TeamEventBody
  // isolated workspaces: copy, changes, merge back, conflicts (see src/harness/workspace/README.md)
  | WorkspaceEventBody
  // MCP servers: connect, tool lists, calls with raw JSON-RPC, errors (see src/harness/mcp/README.md)
  | McpEventBody
  // agents: todos and subagents (trace/agents.ts)
  | TodoSubagentEventBody;

/** Fields every event carries. */
export type TraceMeta = {
  /** Monotonic within one run (and one agent). */
  seq: number;
  /** From the injected clock. */
  ts: number;
  /** `main` for the top-level agent; subagents get their own. */
  agentId: string;
  /** The turn the event belongs to (0 before the first model call). */
  turn: number;
  /** A subagent's events: the parent's `agent` call that started it. */
  parentToolUseId?: string;
};

export type TraceEvent = EventBody & TraceMeta;

export type TraceEventType = TraceEvent['type'];

/** The event of one type, for narrowing in views: `EventOf<'tool.result'>`. */
export type EventOf<T extends TraceEventType> = Extract<TraceEvent, { type: T }>;

/** The body of an event before the loop stamps seq / ts / agentId / turn. */
export type TraceEventBody = EventBody;
