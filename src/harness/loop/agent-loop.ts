/**
 * The agent loop: assemble the request → call the model → run the tools it asked for → repeat.
 *
 * It is an async generator so the consumer decides the pace: pulling one event is a "step",
 * pulling until a kind of event is a breakpoint. All state lives in one `LoopState`; every continue
 * site goes through `continueWith` with only what changes and a `transition.reason`, and every
 * retry changes what the model sees and is bounded by a budget kept in that state (README.md lists
 * them). Each mechanism has one call site here: the prompt site, the context site, the model call
 * and its error site, the tool site (permissions and hooks inside), the todo site and the stop site.
 */
import { recordCacheUsage } from '../context/pipeline.ts';
import type { Message, ModelRequest, TextBlock, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { addUsage } from '../messages.ts';
import type { ModelError } from '../ports.ts';
import type { TraceEvent, TransitionReason } from '../trace.ts';
import { todoReminderDue, todosAfterTools } from '../agents/todos/index.ts';
import { callModel } from './call-model.ts';
import { continueWith, STREAKS_RESET } from './continue-with.ts';
import { withUserContent } from './history.ts';
import { createLoopEnv, initialState, runStartEvents } from './loop-env.ts';
import { EMPTY_RESPONSE_RETRY, MALFORMED_TOOL_USE_RETRY, MAX_TOKENS_RESUME, refusalDetail } from './meta-messages.ts';
import { modelErrorSite } from './model-error-site.ts';
import { promptSite } from './prompt-site.ts';
import { runTools } from './run-tools.ts';
import { slashSite } from './slash-site.ts';
import { stopSite } from './stop-site.ts';
import { reattachTodos } from './todo-reattach.ts';
import type { LoopDeps, LoopInput, LoopState, RunResult } from './types.ts';
import { checkBudget, CostLedger } from '../cost/index.ts';

/**
 * With a dollar ceiling (`input.budget`), every event the run yields — its subagents' and
 * teammates' included — goes through a cost ledger the budget site reads before each call.
 */
export async function* agentLoop(input: LoopInput, deps: LoopDeps): AsyncGenerator<TraceEvent, RunResult> {
  if (!input.budget) return yield* loopBody(input, deps, null);
  const spend = new CostLedger(input.budget.prices);
  const inner = loopBody(input, deps, spend);
  try {
    let step = await inner.next();
    while (!step.done) {
      spend.add(step.value);
      yield step.value;
      step = await inner.next();
    }
    return step.value;
  } finally {
    // A consumer that stops pulling early still runs the loop's own clean-up.
    await inner.return(undefined as never);
  }
}

async function* loopBody(input: LoopInput, deps: LoopDeps, spend: CostLedger | null): AsyncGenerator<TraceEvent, RunResult> {
  const env = createLoopEnv(input, deps, spend);
  const { budgets, signal, emit, hooks, toolPool, context, agents, backgroundHooks, hasTodoTool } = env;
  let state: LoopState = initialState(input, env.initialContext);

  try {
    yield* runStartEvents(input, deps, env);
    // The slash site: a built-in command runs and ends the run; a custom one expands into the prompt.
    const slash = yield* slashSite(input, state, emit, { context, hooks });
    if ('done' in slash) return slash.done;
    state = slash.state;
    // A custom command's `allowed-tools`: allowed without asking for this prompt's run only.
    if (slash.allow.length > 0) env.toolSite = { ...env.toolSite, permissions: { ...env.toolSite.permissions, rules: [...env.toolSite.permissions.rules, ...slash.allow] } };
    // The prompt site: SessionStart and UserPromptSubmit hooks.
    const started = yield* promptSite(input, state, emit, hooks);
    if ('done' in started) return started.done;
    state = started.state;

    while (true) {
      const { transition } = state;
      let { messages } = state;
      // A retry answers the same turn: the server failed, or the history was compacted to fit.
      const isRetry = transition?.reason === 'model_retry' || transition?.reason === 'reactive_compact_retry' || transition?.reason === 'model_fallback';
      if (signal.aborted) return yield* emit.exit('aborted', state, undefined, 'Stopped by the user.');
      if (!isRetry && state.turn >= input.maxTurns) {
        return yield* emit.exit('max_turns', state, undefined, `Reached the limit of ${input.maxTurns} model calls.`);
      }
      const turn = isRetry ? state.turn : state.turn + 1;
      // The safe point: finished background jobs and queued steering messages join the history.
      if (!isRetry && state.turn > 0) messages = yield* agents.deliver(messages, turn);
      // Background hooks that ended report here, and their context reaches the model (async-hook-site.ts).
      if (!isRetry) messages = yield* backgroundHooks.deliver(messages);
      const attempt = isRetry ? state.modelRetries + 1 : 1;
      emit.turn = turn;
      if (!isRetry) yield emit.stamp({ type: 'turn.start' });
      // The tool pool site: a tool saved while the run worked joins this request.
      const poolChange = isRetry ? null : toolPool.refresh();
      if (poolChange) yield emit.stamp(poolChange);

      // The context site: the five layers run on the stored history; the model sees their projection.
      const prep = yield* agents.reattach(messages, yield* context.assemble(messages, state.context, false));
      if (prep.committed) messages = prep.committed;
      let requestMessages = prep.request.messages;
      // A summary replaced the history: the todo list goes back in, in the history and in this request.
      if (prep.compaction) {
        const back = yield* reattachTodos(emit, state, hasTodoTool, messages);
        messages = back.messages;
        if (back.block) requestMessages = withUserContent(requestMessages, [back.block]);
      }
      const request: ModelRequest = { model: state.model, max_tokens: input.maxTokens, ...prep.request, messages: requestMessages };
      if (input.countTokens && deps.model.countTokens && !isRetry) yield emit.stamp(await context.count(request, prep.tokens.projected));
      // The budget site: stop before a call that would cross the run's dollar ceiling.
      const over = spend && input.budget ? checkBudget(input.budget, spend.totalUsd(), state.model, prep.tokens.projected) : null;
      if (over) {
        yield emit.stamp(over.event);
        return yield* emit.exit('max_budget', { ...state, messages, context: prep.nextState }, undefined, over.detail);
      }
      yield emit.stamp({ type: 'model.request', request, attempt });

      // The model call, and its error site (abort, a wait too long, wait and retry, reactive compact).
      const startedAt = deps.clock.now();
      const outcome = yield* emit.pass(callModel(deps.model, request, signal));
      const usage = addUsage(state.usage, outcome.usage);
      if (!outcome.ok) {
        const failed = yield* modelErrorSite(outcome, state, { messages, turn, attempt, usage, context: prep.nextState }, env);
        if ('done' in failed) return failed.done;
        state = failed.state;
        continue;
      }

      const { blocks, stopReason, malformed } = outcome;
      const assistant: Message = { role: 'assistant', content: blocks };
      yield emit.stamp({
        type: 'model.response',
        stopReason,
        ...(outcome.stopDetails ? { stopDetails: outcome.stopDetails } : {}),
        usage: outcome.usage,
        totalUsage: usage,
        message: assistant,
        ms: deps.clock.now() - startedAt,
      });

      // An empty assistant message is never sent back: it would be rejected by the API. Nor is a
      // refused one: sent back, it would read as an answer the model stands by (see refusalDetail).
      let msgs = messages;
      if (blocks.length > 0 && stopReason !== 'refusal') {
        const a = emit.append(msgs, assistant, 'assistant');
        msgs = a.messages;
        yield a.event;
      }
      // The cache numbers of this call, and what (if anything) broke the cached prefix.
      const cache = recordCacheUsage(prep.nextState, outcome.usage, {
        ...(state.lastRequest ? { prev: state.lastRequest } : {}),
        current: request,
      });
      yield emit.stamp(cache.event);
      // The run after this reply: a successful call ends the retry and reactive-compact budgets.
      let after: LoopState = { ...state, messages: msgs, turn, usage, modelRetries: 0, context: cache.state, lastRequest: request, reactiveCompactUsed: false };

      if (stopReason === 'refusal') return yield* emit.exit('refusal', after, undefined, refusalDetail(outcome.stopDetails));

      // The tool site: permissions, PreToolUse / PostToolUse hooks and the tools themselves.
      const toolUses = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      let results: (ToolResultBlock | TextBlock)[] = [];
      let stopRun: { reason: string } | undefined;
      if (toolUses.length > 0) {
        const ran = yield* emit.pass(runTools(toolUses, { ...env.toolSite, tools: toolPool.view().visible, malformed }));
        results = [...ran.results, ...ran.notes];
        stopRun = ran.stopRun;
      }
      // The todo site: an accepted todo_write replaces the list; every other turn makes it staler.
      const todo = todosAfterTools(state, toolUses, results);
      if (todo.event) yield emit.stamp(todo.event);
      after = { ...after, todos: todo.todos, turnsSinceTodoWrite: todo.turnsSinceTodoWrite };
      if (stopRun && !signal.aborted) {
        const u = results.length > 0 ? emit.addUser(msgs, results, 'tool_results') : null;
        if (u) yield u.event;
        return yield* emit.exit('hook_stopped', { ...after, messages: u?.messages ?? msgs }, undefined, stopRun.reason);
      }

      if (stopReason === 'max_tokens') {
        if (state.outputRecoveries >= budgets.maxOutputTokensRecoveries) {
          const u = results.length > 0 ? emit.addUser(msgs, results, 'tool_results') : null;
          if (u) yield u.event;
          const message = `The model hit its output limit ${state.outputRecoveries + 1} times in a row. Raise max tokens or ask for smaller steps.`;
          const error: ModelError = { kind: 'unknown', message, retryable: false };
          return yield* emit.exit('model_error', { ...after, messages: u?.messages ?? msgs }, error, 'max_tokens recovery budget spent');
        }
        const u = emit.addUser(msgs, [...results, { type: 'text', text: MAX_TOKENS_RESUME }], results.length > 0 ? 'tool_results' : 'meta');
        yield u.event;
        const detail = `recovery ${state.outputRecoveries + 1} of ${budgets.maxOutputTokensRecoveries}`;
        state = yield* continueWith(emit, after, { messages: u.messages, outputRecoveries: state.outputRecoveries + 1, stopHookBlocks: 0 }, 'max_output_tokens_recovery', detail);
        continue;
      }

      if (toolUses.length > 0) {
        // Nudge once for malformed input; never twice in a row (the error results still go back).
        const nudge = malformed.length > 0 && transition?.reason !== 'malformed_tool_use_retry';
        const reminder = todoReminderDue(after, hasTodoTool);
        if (reminder) yield emit.stamp(reminder.event);
        const content = [...results, ...(nudge ? [{ type: 'text' as const, text: MALFORMED_TOOL_USE_RETRY }] : []), ...(reminder ? [reminder.block] : [])];
        const u = emit.addUser(msgs, content, 'tool_results');
        yield u.event;
        const reason: TransitionReason = nudge ? 'malformed_tool_use_retry' : 'next_turn';
        const detail = nudge ? `${malformed.length} tool call(s) with invalid JSON input` : undefined;
        state = yield* continueWith(emit, after, { messages: u.messages, ...STREAKS_RESET, ...(reminder ? { turnsSinceTodoWrite: 0 } : {}) }, reason, detail);
        continue;
      }

      if (stopReason === 'pause_turn') {
        // The server paused a long turn; sending the reply back lets the model carry on.
        state = yield* continueWith(emit, after, STREAKS_RESET, 'next_turn', 'pause_turn');
        continue;
      }

      if (blocks.length === 0 && !state.emptyRetryUsed) {
        const u = emit.addUser(msgs, [{ type: 'text', text: EMPTY_RESPONSE_RETRY }], 'meta');
        yield u.event;
        state = yield* continueWith(emit, after, { messages: u.messages, emptyRetryUsed: true }, 'empty_response_retry', 'the reply was empty');
        continue;
      }

      // Something was waiting for the model: a queued steering message or a background job's result.
      const waiting = await agents.atStop(turn + 1);
      if (waiting) {
        state = yield* continueWith(emit, after, STREAKS_RESET, waiting.reason, waiting.detail);
        continue;
      }

      // An asyncRewake hook that exited 2 wakes the agent (the loop waits for running ones first).
      const woke = await backgroundHooks.atStop();
      if (woke) {
        state = yield* continueWith(emit, after, STREAKS_RESET, woke.reason, woke.detail);
        continue;
      }

      // Stop pressed while the loop waited above (a background job): stopped, not completed.
      if (signal.aborted) return yield* emit.exit('aborted', after, undefined, 'Stopped by the user.');
      // The stop site: Stop hooks may keep the model going (bounded); otherwise the run completes.
      const stopped = yield* stopSite(after, assistant, { emit, hooks, budgets, deps });
      if ('done' in stopped) return stopped.done;
      state = stopped.state;
    }
  } finally {
    env.unwatch();
    // A run never leaves jobs behind (also when the consumer stops pulling before the exit).
    agents.background.killAll();
  }
}
