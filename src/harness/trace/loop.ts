/**
 * Trace events of the loop itself: a run's start and end, each turn, every continue or exit
 * (`transition`, stamped with its reason) and every message appended to the history. Owns the
 * reason vocabularies (`ContinueReason`, `ExitReason`) the rest of the union refers to.
 * Joined into `TraceEvent` in `../trace.ts`.
 */
import type { Message, Usage } from '../messages.ts';
import type { ModelError, SandboxKind } from '../leaf-types.ts';

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

/** The loop's own events. */
export type LoopEventBody =
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
    };
