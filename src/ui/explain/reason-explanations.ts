/**
 * Why the loop went round again or stopped: one entry per `TransitionReason`. Typed as a full
 * `Record`, so a reason added to the harness does not compile until it is explained here.
 */
import type { TransitionReason } from '../../harness/index.ts';
import type { GlossaryTerm } from './glossary.ts';

export type ReasonExplanation = {
  /** What the reason means, in a sentence or two. */
  means: string;
  /** The line of the loop that stamps it (`src/harness/loop/agent-loop.ts`). */
  site: string;
  /** What would have happened had this site not been there. */
  otherwise: string;
  lesson: string;
  terms: GlossaryTerm[];
};

export const REASON_EXPLANATIONS: Record<TransitionReason, ReasonExplanation> = {
  next_turn: {
    means: 'The model asked for tools and got their results, so the loop sends the results back and calls the model again.',
    site: 'the tool site: `if (toolUses.length > 0)` → `emit.next(reason)` after the results were appended',
    otherwise: 'With no continue here the run would stop with the tool results unread by the model — it could never act on what it saw.',
    lesson: 'parallel-exploration',
    terms: ['turn', 'transition', 'continue-site'],
  },
  max_output_tokens_recovery: {
    means: 'The reply was cut off at the output limit (`stop_reason: max_tokens`). The loop appends a short “resume where you stopped” message and calls again.',
    site: '`if (stopReason === \'max_tokens\')`, bounded by `budgets.maxOutputTokensRecoveries` (3 in a row)',
    otherwise: 'The half-finished answer would be final. Once the budget is spent the run ends with `model_error` instead of looping.',
    lesson: 'max-tokens-recovery',
    terms: ['continue-site', 'budget'],
  },
  malformed_tool_use_retry: {
    means: 'A tool call’s input was not valid JSON. Its error result goes back with a one-time nudge to resend the call with valid input.',
    site: '`const nudge = malformed.length > 0 && transition?.reason !== \'malformed_tool_use_retry\'` — never twice in a row',
    otherwise: 'The model would see only an error result; twice in a row it gets no nudge, so a broken model cannot loop on it.',
    lesson: 'flaky-model',
    terms: ['continue-site', 'budget'],
  },
  model_retry: {
    means: 'The model call failed with a retryable error (rate limit, overload, a dropped stream). The loop waits (backoff or `retry-after`) and makes the same call again, in the same turn.',
    site: '`const retry = planRetry(error, state.modelRetries, budgets)` (retry-policy.ts) — 4 retries with backoff capped at 8 s; 10 for 529 overloaded, capped at 16 s; a `retry-after` is honoured up to 60 s, a longer one ends the run',
    otherwise: 'The first 429 or 529 would end the run with `model_error`.',
    lesson: 'flaky-model',
    terms: ['continue-site', 'budget', 'turn'],
  },
  empty_response_retry: {
    means: 'The model replied with nothing at all. An empty assistant message is never sent back (the API rejects it); instead the loop asks once for an answer.',
    site: '`if (blocks.length === 0 && !state.emptyRetryUsed)` — once until a reply has content again',
    otherwise: 'The run would end `completed` with no answer; a second empty reply in a row does exactly that.',
    lesson: 'empty-reply',
    terms: ['continue-site', 'budget'],
  },
  stop_hook_blocking: {
    means: 'The model was done, but a Stop hook blocked the stop (exit 2 or `decision: "block"`). Its reason goes to the model as a new message and the loop continues.',
    site: 'the stop site: `if (stop?.block && state.stopHookBlocks < budgets.stopHookBlocks)` — 3 blocks',
    otherwise: 'The run would end `completed` at the model’s first “done”; after 3 blocks it ends anyway.',
    lesson: 'stop-hook-keeps-working',
    terms: ['hook-event', 'continue-site', 'budget'],
  },
  async_hook_rewake: {
    means: 'The model was done, but an `asyncRewake` hook started in the background had exited 2 (or did while the loop waited for it). Its stderr goes to the model and the loop continues, as Claude Code wakes the agent.',
    site: 'the stop site: `asyncHooks.atStop()` waits for running `asyncRewake` hooks, then continues when one exited 2',
    otherwise: 'A background check that failed after the model finished would go unseen until the next prompt.',
    lesson: 'hook-events-tour',
    terms: ['hook-event', 'continue-site'],
  },
  steering_message: {
    means: 'The model had finished its reply, but a message you typed while it worked (or a scripted or steer-file one) was waiting in the queue. It is delivered and the model is called again.',
    site: 'the stop site, before Stop hooks: `const waiting = await agents.atStop(turn + 1)` (agents/site.ts)',
    otherwise: 'The run would end `completed` and your message would be lost (the box gives back any the run could not deliver).',
    lesson: 'steering-mid-run',
    terms: ['continue-site', 'safe-point'],
  },
  background_notification: {
    means: 'The model finished while a background job was done but not yet reported, or still running: the loop waits for it (or for Stop), adds its `<bash-notification>`, and calls the model again.',
    site: 'the stop site, before Stop hooks: `agents.atStop` — each job notifies once, `maxTurns` bounds it',
    otherwise: 'The run would end `completed` with a job still running or its result unread.',
    lesson: 'background-tests',
    terms: ['continue-site', 'safe-point'],
  },
  reactive_compact_retry: {
    means: 'The API answered “prompt is too long”. The loop summarises the history (auto-compact, forced) and retries the same call once.',
    site: '`if (error.kind === \'prompt_too_long\' && !state.reactiveCompactUsed)` — once per turn',
    otherwise: 'The run would end with `model_error`; if the compact itself fails it still does.',
    lesson: 'reactive-compact',
    terms: ['compaction-layer', 'continue-site'],
  },
  completed: {
    means: 'The model answered without asking for a tool and no Stop hook objected: the run is done.',
    site: 'the last line of the loop: `emit.exit(\'completed\', …)` after the Stop hooks and memory extraction',
    otherwise: 'Had the reply asked for a tool, the transition would have been `next_turn`.',
    lesson: 'fix-a-bug',
    terms: ['exit', 'transition'],
  },
  max_turns: {
    means: 'The run made as many model calls as `maxTurns` allows and stops before the next one.',
    site: 'the top of each turn: `if (!isRetry && state.turn >= input.maxTurns)`',
    otherwise: 'A model that keeps asking for tools would run (and bill) forever.',
    lesson: 'max-turns',
    terms: ['exit', 'budget', 'turn'],
  },
  aborted: {
    means: 'You stopped the run. Text already streamed is kept; half-made tool calls are dropped and running tools get an “interrupted” result so the history stays valid.',
    site: '`if (signal.aborted)` at the top of a turn, after a failed call, or while waiting to retry',
    otherwise: 'The run would go on to its next transition.',
    lesson: 'parallel-exploration',
    terms: ['exit', 'tool-use-id'],
  },
  model_error: {
    means: 'The model call failed and no continue site could help: not retryable, retries spent, a failed compact, or the max-tokens budget spent.',
    site: 'after the retry and reactive-compact checks: `emit.exit(\'model_error\', …, error, why)`',
    otherwise: 'There is nothing left to do but report the error; the history is kept so you can continue later.',
    lesson: 'flaky-model',
    terms: ['exit', 'budget'],
  },
  refusal: {
    means: 'The model declined to continue (`stop_reason: refusal`). The loop ends the run and runs no tools from that reply.',
    site: '`if (stopReason === \'refusal\')`, right after the reply is appended',
    otherwise: 'Tools in a refused reply would run, and the loop would ask again and again.',
    lesson: 'refusal',
    terms: ['exit'],
  },
  prompt_blocked: {
    means: 'A UserPromptSubmit hook blocked your prompt; it never reached the model.',
    site: 'the prompt site, before the first turn: a `block` decision from UserPromptSubmit',
    otherwise: 'The prompt would be sent to the model as usual.',
    lesson: 'prompt-blocked',
    terms: ['hook-event', 'exit'],
  },
  hook_stopped: {
    means: 'A hook answered `continue: false`: stop the whole run now, whatever the model wanted.',
    site: 'after the tool site (`if (stopRun && !signal.aborted)`) or at the stop site (`stop?.stopRun`)',
    otherwise: 'The loop would carry on with its next transition.',
    lesson: 'stop-hook-keeps-working',
    terms: ['hook-event', 'exit'],
  },
  model_fallback: {
    means: 'The model stayed overloaded after every retry, or the API did not know it: the run switches to the configured fallback model and makes the call again (Claude Code\'s `--fallback-model`).',
    site: 'after `planRetry` gave up: `if (fallback.due(error))` → a `model.fallback` event, then the same turn on the new model',
    otherwise: 'The run would end with `model_error` on the first model that failed.',
    lesson: 'flaky-model',
    terms: ['continue-site', 'budget', 'turn'],
  },
  max_budget: {
    means: 'The run has a dollar ceiling. Spent so far plus the next call (its input tokens at the uncached price) would cross it, so the run stops before making that call.',
    site: 'the budget check before `model.request` (`cost/budget.ts`), on every attempt',
    otherwise: 'The run would keep calling the model and spend past the ceiling.',
    lesson: 'budget-stop',
    terms: ['budget', 'exit'],
  },
};
