/**
 * `TraceEvent`: the one stream every view of the harness is built from. The loop yields these;
 * the UI renders them, the session log stores them, replays re-read them. Every event is plain
 * JSON (no class instances, no functions) so it can be persisted and shared.
 *
 * The union is open by design: later layers (permissions, hooks, context, agents, session) add
 * their own groups here.
 */
import type { ToolImage } from './leaf-types.ts';
import type { Message, ModelRequest, StopDetails, StopReason, Usage } from './messages.ts';
import type { MemoryOrigin, MemorySource, ModelError, ReplayDivergence, SandboxKind } from './leaf-types.ts';
import type { HookEventName } from './hooks/config.ts';
import type { DecidedBy, PermissionMode, StageDecision, StageName } from './permissions/types.ts';
import type { AgentEventBody } from './agents/events.ts';
import type { TeamEventBody } from './agents/teams/events.ts';
import type { WorkspaceEventBody } from './workspace/events.ts';
import type { McpEventBody } from './mcp/events.ts';
import type { TodoItem } from './agents/todos/todo-item.ts';

/** Which hook a hook event is about: its command, prompt, URL or JS hook name. */
export type HookRef =
  | { type: 'command'; command: string }
  | { type: 'prompt'; prompt: string }
  | { type: 'http'; url: string }
  | { type: 'js'; name: string };

/** Why the loop continued or stopped. Stamped on every continue site and every exit. */
export type ContinueReason =
  | 'next_turn'
  | 'max_output_tokens_recovery'
  | 'malformed_tool_use_retry'
  | 'model_retry'
  | 'empty_response_retry'
  | 'stop_hook_blocking'
  | 'reactive_compact_retry'
  // agents: the model stopped while something was waiting for it (src/harness/agents/)
  | 'steering_message'
  | 'background_notification'
  /** An `asyncRewake` hook exited 2 after the model stopped: its stderr goes to the model (`hook.run` with `background.rewake`). */
  | 'async_hook_rewake'
  /** The model was overloaded or not found: the run switched to its fallback model (`model.fallback`). */
  | 'model_fallback';

export type ExitReason =
  | 'completed'
  | 'max_turns'
  | 'aborted'
  | 'model_error'
  | 'refusal'
  /** A UserPromptSubmit hook blocked the prompt; it never reached the model. */
  | 'prompt_blocked'
  /** A hook answered `continue: false`. */
  | 'hook_stopped'
  /** The next model call would have crossed the run's dollar ceiling (`budget.exceeded`). */
  | 'max_budget';

export type TransitionReason = ContinueReason | ExitReason;

/** Where an appended message came from; the UI styles each differently. */
export type MessageOrigin =
  | 'user' // the person's prompt
  | 'assistant' // the model's reply
  | 'tool_results' // results of the tools the model called
  | 'meta' // a harness-injected instruction (recovery, retry)
  | 'synthetic'; // results the harness wrote itself (e.g. "interrupted by the user")

export type ToolOutputChunk = { stream: 'stdout' | 'stderr'; text: string };

type EventBody =
  // loop
  | {
      type: 'run.start';
      model: string;
      modelClient: string;
      sandbox: SandboxKind;
      tools: string[];
      maxTurns: number;
    }
  | { type: 'turn.start' }
  | {
      /**
       * The tool pool changed while the run worked (a custom tool saved, edited or deleted): the
       * next request carries `visible`. `hidden`: added tools a bare deny keeps from the model.
       * `loaded`: deferred tools whose schemas now join the list (appended at its end), and `why`
       * (the `tool_search` call that asked for them).
       */
      type: 'tools.changed';
      added: string[];
      removed: string[];
      changed: string[];
      hidden?: { name: string; rule: string }[];
      loaded?: string[];
      why?: string;
      visible: string[];
    }
  | {
      /** Tools removed from the model's view by a bare deny rule; emitted once per run when any are. */
      type: 'permission.prefilter';
      hidden: { name: string; rule: string }[];
      visible: string[];
    }
  | {
      type: 'transition';
      reason: TransitionReason;
      /** Short human explanation: which budget, what was injected. */
      detail?: string;
    }
  | {
      /**
       * A message entered the history at `index`. When `index` names an existing message, this
       * one replaces it: content for the user side is merged into the last user message so that
       * roles keep alternating.
       */
      type: 'message.appended';
      origin: MessageOrigin;
      message: Message;
      index: number;
    }
  | {
      type: 'run.end';
      reason: ExitReason;
      turns: number;
      usage: Usage;
      error?: ModelError;
    }
  // context
  | {
      /**
       * A compaction layer rewrote the stored history (budget reduction, snip, microcompact or
       * auto-compact). `messages` is the new truth; later `message.appended` indexes refer to it.
       */
      type: 'history.rewritten';
      messages: Message[];
      layers: string[];
      messagesBefore: number;
    }
  | {
      type: 'context.assembled';
      /** Estimated tokens per part (chars / 4 until the context layer refines it). */
      parts: { system: number; tools: number; messages: number; memory?: number };
      total: number;
      messageCount: number;
      /** Tokens of each projected message, in order (the context layer fills this). */
      perMessage?: number[];
      /** Tokens of each tool result in the projected request. */
      toolResults?: { toolUseId: string; name?: string; messageIndex: number; tokens: number }[];
      /** Tokens of the stored history before projection (live vs projected on the context bar). */
      truthTotal?: number;
      /** The context window and the auto-compact line on the bar. */
      window?: number;
      threshold?: { fraction: number; tokens: number };
      /** How the numbers were made, e.g. `chars/4`. */
      estimator?: string;
    }
  | {
      /**
       * The API's own count of the request's input tokens (`count_tokens`), beside our estimate.
       * Emitted when the run asks for exact counts and the model client can count.
       */
      type: 'context.counted';
      estimate: number;
      /** Null when the count failed; `error` says why. */
      actual: number | null;
      /** estimate − actual, and that as a share of actual. */
      difference?: number;
      relativeError?: number;
      error?: string;
    }
  | {
      /** One compaction layer ran before a model call (fired or not); see `src/harness/context/`. */
      type: 'compaction.layer';
      layer: CompactionLayerName;
      fired: boolean;
      /** True when the stored history changed (every layer but collapse may commit). */
      committed: boolean;
      tokensBefore: number;
      tokensAfter: number;
      /** Why it fired or did not, in words. */
      reason: string;
      changes: CompactionChange[];
      /**
       * The model calls that wrote summaries here: collapse's new ranges (priced as `collapse_summary`),
       * auto-compact's one summary of the whole history, `/compact` included (priced as `compact_summary`).
       */
      summaryCalls?: SummaryCall[];
    }
  | {
      /** Cache numbers of one model call and what broke the prefix, if anything. */
      type: 'cache.stats';
      read: number;
      creation: number;
      uncached: number;
      /** read ÷ (read + creation + uncached); 0 when there was no input. */
      hitRate: number;
      /** What differs from the previous request that broke the cached prefix; null when it only appended. */
      breakDiff: CacheBreak | null;
    }
  // model
  | { type: 'model.request'; request: ModelRequest; attempt: number }
  | {
      type: 'model.delta';
      index: number;
      delta:
        | { kind: 'text'; text: string }
        | { kind: 'input_json'; partial_json: string }
        | { kind: 'thinking'; text: string };
    }
  | {
      type: 'model.response';
      stopReason: StopReason | null;
      /** The API's `stop_details` when it sent one (a refusal's category and explanation). */
      stopDetails?: StopDetails;
      usage: Usage;
      /** Usage summed over the whole run so far. */
      totalUsage: Usage;
      message: Message;
      ms: number;
    }
  | ({
      /**
       * Replays: a tool result in this request is not what the recording saw (`ModelClient.replayCheck`),
       * so the recorded replies from here on answer another reality. One event per differing call;
       * the first in a log is where the replay stopped matching.
       */
      type: 'replay.diverged';
    } & ReplayDivergence)
  | {
      type: 'model.error';
      error: ModelError;
      attempt: number;
      /** Milliseconds before the next attempt, when one will be made. */
      retryInMs?: number;
    }
  // tools
  | { type: 'tool.proposed'; toolUseId: string; name: string; input: unknown }
  | { type: 'tool.validated'; toolUseId: string; name: string; ok: boolean; error?: string }
  | {
      type: 'tool.started';
      toolUseId: string;
      name: string;
      concurrent: boolean;
      /** The input that runs: the proposed one, or a PreToolUse hook's rewrite of it. */
      input?: unknown;
    }
  | { type: 'tool.output'; toolUseId: string; chunk: ToolOutputChunk }
  | {
      type: 'tool.result';
      toolUseId: string;
      name: string;
      content: string;
      isError: boolean;
      ms: number;
      /** Images the result carries to the model after its text (an MCP tool's image content). */
      images?: ToolImage[];
    }
  // permissions (see src/harness/permissions/README.md)
  | {
      /** One stage of the permission pipeline ran for a tool call (in order; a stage may end it). */
      type: 'permission.stage';
      toolUseId: string;
      name: string;
      stage: StageName;
      decision: StageDecision;
      reason: string;
      decidedBy?: DecidedBy;
    }
  | {
      /** The pipeline is about to ask a person; `suggestions` are what "allow for this session" adds. */
      type: 'permission.prompt';
      toolUseId: string;
      name: string;
      input: unknown;
      reason: string;
      suggestions: string[];
    }
  | {
      /** The pipeline's final word on a tool call: the audit record. */
      type: 'permission.decision';
      toolUseId: string;
      name: string;
      decision: 'allow' | 'deny';
      stage: StageName;
      reason: string;
      decidedBy: DecidedBy;
    }
  // hooks (see src/harness/hooks/README.md)
  | {
      /** One hook finished (or timed out). Hooks of one event run in parallel; each reports as it ends. */
      type: 'hook.run';
      event: HookEventName;
      /** The matcher of the group the hook came from (`''` when the group had none). */
      matcher: string;
      hook: HookRef;
      /** The JSON given to the hook on stdin (or as the JS hook's argument). */
      input: unknown;
      exitCode: number;
      stdout: string;
      stderr: string;
      timedOut: boolean;
      /**
       * What this hook contributed: a permission decision, `block` (exit 2 or `decision: "block"`),
       * `stop` (`continue: false`), `continue` (it failed or timed out, the agent goes on), `none`.
       */
      decision?: 'allow' | 'deny' | 'ask' | 'block' | 'stop' | 'continue' | 'none';
      reason?: string;
      ms: number;
      /** An http hook's answer status (absent when no answer came). */
      status?: number;
      /** An http hook the client would not call (an origin the user did not allow): stderr says why. */
      refused?: boolean;
      /**
       * A background (`async` / `asyncRewake`) hook finished; it was started at `hook.async_started`
       * and could not block anything. Its context reaches the model at the next safe point; `rewake`
       * is set when its exit 2 woke the agent.
       */
      background?: { id: string; rewake: boolean };
    }
  | {
      /** An `async` / `asyncRewake` command hook started in the background; the event went on without it. */
      type: 'hook.async_started';
      id: string;
      event: HookEventName;
      matcher: string;
      hook: HookRef;
      rewake: boolean;
    }
  | {
      /** A hooks setting that cannot work (e.g. a matcher that is not a valid regex); reported once. */
      type: 'hook.config_error';
      event: HookEventName;
      matcher: string;
      message: string;
    }
  // sandbox
  | {
      type: 'sandbox.changed';
      paths: string[];
      /**
       * Who changed the files: the agent's tools (absent or 'agent', emitted after a turn's tools
       * wrote) or the person, in the Files panel or the terminal ('user', recorded between pulls).
       */
      origin?: 'agent' | 'user';
    }
  // devkit: settings read from the sandbox, the person's terminal (see src/harness/claude-dir/README.md)
  | {
      /**
       * At run start the sandbox's `.claude/settings.json` (project) and `.claude/settings.local.json`
       * (local) were looked for and read, as Claude Code does; a file that did not parse is left out.
       */
      type: 'settings.read';
      files: SettingsFileRead[];
      /** Every scope in force, highest first (e.g. local, project, scenario). */
      scopes: string[];
      /** Whether what can act in them (hooks, allow rules, modes) applies: the document is trusted. */
      trusted: boolean;
      /** The permission mode in force and who chose it: a scope (`local`, `project` …), `you` (a mode picked for the run) or `default`. */
      mode?: PermissionMode;
      modeFrom?: string;
    }
  | {
      /** The person ran a command in the terminal on the live sandbox: their own, no permission asked. */
      type: 'terminal.command';
      command: string;
      exitCode: number;
      /** Ctrl-C stopped it. */
      interrupted: boolean;
      ms: number;
    }
  // memory (see src/harness/memory/README.md)
  | {
      /**
       * The memory text sent first in the first user message (and again after a compaction):
       * the CLAUDE.md files found from the root down to the working directory, then the
       * memories ranked most relevant to the prompt, under a token cap.
       */
      type: 'memory.injected';
      files: MemoryFileInfo[];
      chosen: MemoryChoice[];
      left: MemoryLeftOut[];
      /** Missing or cyclic imports, unreadable files, a store that could not be read. */
      problems: MemoryProblem[];
      /** Estimated tokens of the whole memory text (files + memories). */
      tokens: number;
      /** The cap the memories (not the files) had to fit under. */
      cap: number;
      /** The ranking terms taken from the prompt (word stems). */
      terms: string[];
    }
  | {
      /**
       * Facts kept after an exchange (by a model call, or by the deterministic rules), or a
       * compaction's summary kept for the next session (`compaction`).
       */
      type: 'memory.extracted';
      via: 'model' | 'rules' | 'compaction';
      added: { id: string; content: string; source: MemorySource }[];
      /** Facts dropped because an entry already says the same (normalised text). */
      duplicates: { content: string; of: string }[];
      /** Lines of the model's reply that did not parse, a failed call, … */
      problems: string[];
      /** Via `model`: the extraction call's model and usage (priced as its own `memory_extraction` line). */
      call?: { model: string; usage: Usage };
    }
  // agents: skills, task graph, background jobs, steering (see src/harness/agents/README.md)
  | AgentEventBody<ExitReason>
  // agents: teams of long-lived teammates, mailboxes, claiming (see src/harness/agents/teams/README.md)
  | TeamEventBody
  // isolated workspaces: copy, changes, merge back, conflicts (see src/harness/workspace/README.md)
  | WorkspaceEventBody
  // MCP servers: connect, tool lists, calls with raw JSON-RPC, errors (see src/harness/mcp/README.md)
  | McpEventBody
  // agents: todos and subagents (see src/harness/agents/README.md)
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
    }
  // money (see src/harness/cost/README.md)
  | {
      /**
       * The model failed in a way another model may not (overloaded after the retry budget, or not
       * found): the run goes on with the fallback, as Claude Code's `--fallback-model`.
       */
      type: 'model.fallback';
      from: string;
      to: string;
      error: ModelError;
    }
  | {
      /**
       * The run's dollar ceiling: spent so far plus the next call's estimate (its input tokens at
       * the uncached rate) would cross it, so the run stops before making the call.
       */
      type: 'budget.exceeded';
      maxUsd: number;
      spentUsd: number;
      nextEstimateUsd: number;
      nextInputTokens: number;
      model: string;
    };

/** One settings file a run looked for in the sandbox at start (`settings.read`). */
export type SettingsFileRead = {
  path: string;
  scope: 'project' | 'local';
  /** false: the file exists but is not valid settings; `problems` says where. */
  ok: boolean;
  /** Rules the file contributes (before trust), for the event summary. */
  rules: number;
  hooks: number;
  problems: { line: number; column: number; message: string }[];
};

/** One CLAUDE.md (or imported) file in the memory text. */
export type MemoryFileInfo = { path: string; importedFrom?: string; tokens: number };

/** A memory that made it into the text, with how it scored. */
export type MemoryChoice = {
  id: string;
  content: string;
  source: MemorySource;
  /** keyword + recency. */
  score: number;
  keyword: number;
  recency: number;
  tokens: number;
  /** Where the memory came from (absent: stored before origins existed, "user (legacy)"). */
  origin?: MemoryOrigin;
  /** The keyword multiplier from idleness (`memory/decay.ts`); 1 = just used. */
  decay?: number;
  /** The bonus for earlier use, 0.05 × log2(1 + references). */
  use?: number;
  /** Runs it was injected into before this one. */
  references?: number;
};

/** A memory that was left out, and why. */
export type MemoryLeftOut = {
  id: string;
  /** The first characters of the memory. */
  content: string;
  score: number;
  /** `decayed`: an extracted memory unused for 90 days, pruned from the store (`memory/decay.ts`). */
  reason: 'no_match' | 'over_cap' | 'max_entries' | 'other_document' | 'decayed';
};

export type MemoryProblem = {
  kind: 'missing' | 'cycle' | 'too_deep' | 'unreadable' | 'truncated' | 'store';
  path?: string;
  importedFrom?: string;
  message: string;
};

/** The five context layers, cheap to expensive (seed 002 §3). */
export type CompactionLayerName = 'budget' | 'snip' | 'microcompact' | 'collapse' | 'auto_compact';

/** One thing a compaction layer removed or projected, with enough to show it in the UI. */
export type CompactionChange =
  | {
      kind: 'tool_result_ref';
      toolUseId: string;
      toolName?: string;
      messageIndex: number;
      chars: number;
      preview: string;
    }
  | { kind: 'messages_removed'; from: number; to: number; count: number; preview: string }
  | { kind: 'range_collapsed'; from: number; to: number; summary: string; isNew: boolean }
  | { kind: 'history_summarised'; removed: number; kept: number; summary: string }
  /** Microcompact's queued trims, held back because the prompt cache is healthy. */
  | { kind: 'trims_deferred'; toolUseIds: string[] };

/**
 * One no-tools model call that wrote the summary of a new collapse range (`context/collapse-model.ts`).
 * `fallback` says why its reply was not used (failed, aborted, empty, oversized): the deterministic
 * summary stands in. `usage` is what the API reported (null when nothing was).
 */
export type CollapseSummaryCall = { from: number; to: number; model: string; usage: Usage | null; fallback?: string };
/**
 * A summary call on a `compaction.layer` event: collapse's (above), or auto-compact's, where
 * `from`…`to` are the stored messages it summarised and `fallback` says why the compact failed
 * (nothing stands in: the history stays as it was).
 */
export type SummaryCall = CollapseSummaryCall;

/** What changed between two consecutive requests that broke the cached prefix. */
export type CacheBreak = {
  part: 'model' | 'tools' | 'system' | 'messages';
  /** A sentence for the UI, e.g. "message 12 changed (tool_result toolu_3 replaced by a reference)". */
  detail: string;
  /** For `messages`: the first message index whose content differs. */
  index?: number;
  before?: string;
  after?: string;
  /** Estimated tokens the two requests still share from the start. */
  sharedPrefixTokens: number;
};

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
