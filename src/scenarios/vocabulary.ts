/**
 * The words a scenario document may use that the first screen needs too (the breakpoint panel's
 * transition reasons, the course's chapters): plain lists, apart from the schemas that check them
 * (`schema-v1.ts`, zod), which load only when a document is read.
 */
/** Every `TransitionReason`, at run time (the lesson table and tests are checked against it). */
export const TRANSITION_REASONS = [
  'next_turn',
  'max_output_tokens_recovery',
  'malformed_tool_use_retry',
  'model_retry',
  'empty_response_retry',
  'stop_hook_blocking',
  'reactive_compact_retry',
  'steering_message',
  'background_notification',
  'async_hook_rewake',
  'model_fallback',
  'completed',
  'max_turns',
  'aborted',
  'model_error',
  'refusal',
  'prompt_blocked',
  'hook_stopped',
  'max_budget',
] as const;

/** The course's chapters, in teaching order. */
export const CHAPTERS = ['loop', 'tools', 'safety', 'context', 'memory-sessions', 'agents', 'teams', 'extending'] as const;
export type Chapter = (typeof CHAPTERS)[number];
