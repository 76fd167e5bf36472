/**
 * Trace events of the agent's todo list and of subagents (see `src/harness/agents/README.md`):
 * the list replaced or shown again, a subagent started and stopped. The rest of the agents layer
 * (skills, tasks, jobs, teams) keeps its events beside its code (`agents/events.ts`,
 * `agents/teams/events.ts`). Joined into `TraceEvent` in `../trace.ts`.
 */
import type { Usage } from '../messages.ts';
import type { PermissionMode } from '../permissions/types.ts';
import type { TodoItem } from '../agents/todos/todo-item.ts';
import type { ExitReason } from './loop.ts';

/** Todo-list and subagent events. */
export type TodoSubagentEventBody =
  | {
      /** The agent's todo list was replaced by an accepted `todo_write` call. */
      type: 'todo.updated';
      toolUseId: string;
      todos: TodoItem[];
      previous: TodoItem[];
    }
  | {
      /**
       * The harness showed the model its todo list again: `stale` after several model calls without
       * a `todo_write`, `compaction` right after a summary replaced the history.
       */
      type: 'todo.reminder';
      why: 'stale' | 'compaction';
      turnsSinceWrite: number;
      todos: TodoItem[];
    }
  | {
      /** An `agent` call started a subagent; its own events follow with `agentId: childAgentId`. */
      type: 'subagent.start';
      toolUseId: string;
      childAgentId: string;
      subagentType: string;
      description: string;
      prompt: string;
      model: string;
      tools: string[];
      maxTurns: number;
      permissionMode: PermissionMode;
      /** 1 for a subagent of the main agent. */
      depth: number;
      /** Why its definition's mode was not used, when it was not. */
      note?: string;
      /**
       * Present when an `agent` call with `resume` continued this same agent (same `childAgentId`):
       * it goes on from its `priorMessages` earlier messages, after `runs` earlier runs.
       */
      resumed?: { priorMessages: number; runs: number };
    }
  | {
      /** The subagent's loop ended; `finalText` (plus a usage trailer) is all the parent's model gets. */
      type: 'subagent.stop';
      toolUseId: string;
      childAgentId: string;
      subagentType: string;
      reason: ExitReason;
      turns: number;
      usage: Usage;
      toolUses: number;
      ms: number;
      finalText: string;
    };
