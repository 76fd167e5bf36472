/**
 * Inputs, dependencies, state and result of the agent loop.
 */
import type { Message, Usage } from '../messages.ts';
import type { SessionGrants } from '../permissions/session-grants.ts';
import type { PermissionContext } from '../permissions/types.ts';
import type { LoopHooks } from './hook-site.ts';
import type { SessionEndReason } from '../hooks/input.ts';
import type { Prompter } from './run-tools.ts';
import type { ContextSettingsInput } from '../context/settings.ts';
import type { ContextState } from '../context/state.ts';
import type { PrefixRequest } from '../context/prefix.ts';
import type { Summarize } from '../context/summarizer.ts';
import type { CollapseSummarize } from '../context/collapse-model.ts';
import type { MemoryInjectedEvent } from '../memory/select.ts';
import type { MemoryStore } from '../ports.ts';
import type { Clock, IdGen, ModelClient, ModelError, Sandbox } from '../ports.ts';
import type { AnyTool } from '../tools/tool.ts';
import type { FileState } from '../tools/file-state.ts';
import type { ExitReason, TraceEventBody, TransitionReason } from '../trace.ts';
import type { SteeringInbox } from '../agents/steering/inbox.ts';
import type { SkillCatalog } from '../agents/skills/catalog.ts';
import type { TodoItem } from '../agents/todos/todo-tool.ts';
import type { RunBudget } from '../cost/budget.ts';
import type { CommandCatalog } from '../commands/load-commands.ts';

export type LoopInput = {
  /** History so far, ending with the new user prompt. */
  messages: Message[];
  system: string;
  tools: AnyTool[];
  /**
   * The live pool, when tools can change while the run works (the page's custom tools): read
   * before every request; a change is a `tools.changed` event and the next request carries it.
   * Absent: `tools` for the whole run. Return the same tool objects while nothing changed.
   */
  toolPool?: () => readonly AnyTool[];
  /**
   * Tools kept deferred (`loop/deferred-tools.ts`): named in `tool_search`'s description, their
   * schemas sent only once the model loads them. Absent: every tool's schema in every request.
   */
  deferTools?: readonly string[];
  /** Model id sent in each request. */
  model: string;
  maxTokens: number;
  /** Model calls allowed in this run (retries of a failed call do not count). */
  maxTurns: number;
  /** The agent's working directory; defaults to the sandbox's. */
  cwd?: string;
  /** Fires when the user stops the run; the loop closes the transcript cleanly and exits `aborted`. */
  signal?: AbortSignal;
  /** Budgets; defaults in {@link DEFAULT_BUDGETS}. */
  budgets?: Partial<LoopBudgets>;
  /**
   * Rules and mode for every tool call, already merged and trust-filtered. Default: `default`
   * mode with no rules — read-only calls run, everything else needs a person (and is denied when
   * there is no `prompt`). Deny-first: nothing is allowed unless something allows it.
   */
  permissions?: PermissionContext;
  /** Fire SessionStart with this source before the first turn (the first run of a session). */
  sessionStart?: 'startup' | 'resume' | 'clear' | 'compact' | 'fork';
  /** Fire SessionEnd with this reason as this run ends (it ends the session: a headless run, `/clear`). */
  sessionEnd?: SessionEndReason;
  /** The context pipeline's settings (window, threshold, layers); defaults fill the rest. */
  context?: ContextSettingsInput;
  /** The context pipeline's state from the previous run of this conversation. */
  contextState?: ContextState;
  /** Memory text (CLAUDE.md and chosen memories), sent first in the first user message. */
  memory?: string;
  /** How `memory` was chosen, reported as a `memory.injected` event at the start of the run. */
  memoryInjected?: MemoryInjectedEvent;
  /** Which settings files the run read from the sandbox (`settings.read`), reported at the start. */
  settingsRead?: Extract<TraceEventBody, { type: 'settings.read' }>;
  /** Ask the model client for an exact input count before each call (`context.counted`). */
  countTokens?: boolean;
  // agents (src/harness/agents/)
  /** Messages typed while the agent works, read at each safe point and when the model stops. */
  steering?: SteeringInbox;
  /** The skills of this run (the `skill` tool is in `tools`); announced at the start, re-attached after a compact. */
  skills?: SkillCatalog;
  /** The custom slash commands (`.claude/commands/*.md`, `~/.claude/commands/`); refused when not trusted. */
  commands?: CommandCatalog;
  /** What happened while the run was prepared (MCP servers connecting, `src/harness/mcp/`), emitted after `run.start`. */
  preludeEvents?: TraceEventBody[];
  // money (src/harness/cost/)
  /** A dollar ceiling: the run stops before the call that would cross it (`max_budget`). */
  budget?: RunBudget;
  /** The model to switch to when `model` is overloaded past its retries or not found (`model_fallback`). */
  fallbackModel?: string;
};

export type LoopBudgets = {
  /** `max_output_tokens_recovery` attempts in a row before giving up. */
  maxOutputTokensRecoveries: number;
  /** Retries of one failed model call (429 / 529 / 5xx / connection / cut stream). */
  modelRetries: number;
  /** Longest backoff between retries when the server gives no `retry-after`. */
  maxBackoffMs: number;
  /** Times a Stop hook may keep the agent going in a row (`stop_hook_blocking`). */
  stopHookBlocks: number;
  /** Retries of an `overloaded` (529) call: enough to ride out a short outage (see retry-policy.ts). */
  overloadedRetries: number;
  /** Longest backoff between overloaded retries. */
  overloadedMaxBackoffMs: number;
  /** The longest server-requested wait (`retry-after`) honoured; past it the run stops and says how long was asked. */
  maxRetryAfterMs: number;
};

export const DEFAULT_BUDGETS: LoopBudgets = {
  maxOutputTokensRecoveries: 3,
  modelRetries: 4,
  maxBackoffMs: 8_000,
  stopHookBlocks: 3,
  // 0.5 + 1 + 2 + 4 + 8 + 16 × 5 s ≈ 95 s of waiting before an overloaded run gives up.
  overloadedRetries: 10,
  overloadedMaxBackoffMs: 16_000,
  maxRetryAfterMs: 60_000,
};

export type LoopDeps = {
  model: ModelClient;
  sandbox: Sandbox;
  clock: Clock;
  ids: IdGen;
  /** `main` unless this loop runs inside another (a subagent). */
  agentId?: string;
  /** Carry read/snapshot memory across runs of one conversation. */
  files?: FileState;
  /** Hooks to fire; pass only a configuration the user has trusted. */
  hooks?: LoopHooks;
  /** Asks the person about a tool call; absent in headless runs (then such calls are denied). */
  prompt?: Prompter;
  /** "Allow for this session" grants; kept by the caller across runs, never restored on resume. */
  sessionGrants?: SessionGrants;
  /** Writes auto-compact summaries; default: a no-tools call to `model`. */
  summarize?: Summarize;
  /**
   * Writes new collapse summaries with a model (live runs pass `modelCollapseSummarizer`); absent
   * (scripted replays, tests): the deterministic summary. `collapse.summarizer` can switch it off.
   */
  collapseSummarize?: CollapseSummarize;
  /** Where facts worth keeping go after a completed run (rules-based extraction). */
  memoryStore?: MemoryStore;
  /**
   * With `memoryStore`: after a completed run a short no-tools call (`memory/extract-prompt.ts`,
   * at most 600 output tokens) asks this model what to remember, besides the rules. Give it only
   * when the store may be written (trusted or the user's own prompt); absent: rules only, as in
   * scripted replays.
   */
  memoryModel?: { client: ModelClient; model: string };
  /** A subagent's loop: the parent's `agent` call, stamped on every event. */
  parentToolUseId?: string;
  /** Set for a subagent: its stop site fires SubagentStop (with this type) instead of Stop. */
  subagent?: { agentType: string };
};

export type RunResult = {
  reason: ExitReason;
  /** The whole history after the run; every `tool_use` has its `tool_result`. */
  messages: Message[];
  turns: number;
  usage: Usage;
  error?: ModelError;
  /** Carry into the next run of the conversation (`LoopInput.contextState`). */
  contextState: ContextState;
};

/**
 * Everything that changes between iterations, in one object. Each continue site builds the whole
 * next state, so no field can be left stale; budgets travel with the messages.
 */
export type LoopState = {
  messages: Message[];
  /** The model of this run's requests: `input.model`, until the fallback site replaces it (once). */
  model: string;
  /** Model calls made so far in this run. */
  turn: number;
  usage: Usage;
  /** Consecutive max_tokens recoveries (reset by a normal turn). */
  outputRecoveries: number;
  /** Retries of the current model call (reset after a successful call). */
  modelRetries: number;
  /** Whether the empty-reply nudge has been used since the last normal turn. */
  emptyRetryUsed: boolean;
  /** Consecutive `stop_hook_blocking` continuations. */
  stopHookBlocks: number;
  /** The context pipeline's memory: stored originals, collapses, queued trims, cache reads. */
  context: ContextState;
  /** The last request that got a reply, to show what broke the cached prefix. */
  lastRequest: PrefixRequest | null;
  /** The reactive compact ("prompt is too long") is allowed once per turn. */
  reactiveCompactUsed: boolean;
  /** Why the previous iteration continued (null on the first). */
  transition: { reason: TransitionReason; detail?: string } | null;
  /** The agent's todo list (from its last accepted `todo_write`) and model calls since that call. */
  todos: TodoItem[];
  turnsSinceTodoWrite: number;
};
