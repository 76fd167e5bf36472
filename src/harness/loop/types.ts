/**
 * Inputs, dependencies, state and result of the agent loop.
 */
import type { Message, Usage } from '../messages.ts';
import type { Clock, IdGen, ModelClient, ModelError, Sandbox } from '../ports.ts';
import type { AnyTool } from '../tools/tool.ts';
import type { FileState } from '../tools/file-state.ts';
import type { ExitReason, TransitionReason } from '../trace.ts';

export type LoopInput = {
  /** History so far, ending with the new user prompt. */
  messages: Message[];
  system: string;
  tools: AnyTool[];
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
};

export type LoopBudgets = {
  /** `max_output_tokens_recovery` attempts in a row before giving up. */
  maxOutputTokensRecoveries: number;
  /** Retries of one failed model call (429 / 529 / 5xx / connection / cut stream). */
  modelRetries: number;
  /** Longest backoff between retries when the server gives no `retry-after`. */
  maxBackoffMs: number;
};

export const DEFAULT_BUDGETS: LoopBudgets = {
  maxOutputTokensRecoveries: 3,
  modelRetries: 4,
  maxBackoffMs: 8_000,
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
};

export type RunResult = {
  reason: ExitReason;
  /** The whole history after the run; every `tool_use` has its `tool_result`. */
  messages: Message[];
  turns: number;
  usage: Usage;
  error?: ModelError;
};

/**
 * Everything that changes between iterations, in one object. Each continue site builds the whole
 * next state, so no field can be left stale; budgets travel with the messages.
 */
export type LoopState = {
  messages: Message[];
  /** Model calls made so far in this run. */
  turn: number;
  usage: Usage;
  /** Consecutive max_tokens recoveries (reset by a normal turn). */
  outputRecoveries: number;
  /** Retries of the current model call (reset after a successful call). */
  modelRetries: number;
  /** Whether the empty-reply nudge has been used since the last normal turn. */
  emptyRetryUsed: boolean;
  /** Why the previous iteration continued (null on the first). */
  transition: { reason: TransitionReason; detail?: string } | null;
};
