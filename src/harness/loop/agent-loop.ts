/**
 * The agent loop: assemble the request → call the model → run the tools it asked for → repeat.
 *
 * It is an async generator so the consumer decides the pace: pulling one event is a "step",
 * pulling until a kind of event is a breakpoint. All state lives in one `LoopState`, rebuilt whole
 * at every continue site with a `transition.reason`; every retry changes what the model sees and is
 * bounded by a budget kept in that state. Each mechanism has one call site here (see README.md):
 * the prompt site, the context site, the model call, the tool site (permissions and hooks inside),
 * and the stop site.
 */
import { readToolResultTool, storedResultsOf } from '../context/read-tool-result-tool.ts';
import { recordCacheUsage } from '../context/pipeline.ts';
import { emptyContextState } from '../context/state.ts';
import type { Message, ModelRequest, TextBlock, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { addUsage, emptyUsage, textOf } from '../messages.ts';
import { rememberExchange } from '../memory/remember.ts';
import type { PermissionContext } from '../permissions/types.ts';
import type { ModelError } from '../ports.ts';
import { FileState } from '../tools/file-state.ts';
import type { TraceEvent, TransitionReason } from '../trace.ts';
import { callModel } from './call-model.ts';
import { createContextSite } from './context-site.ts';
import { RunEmitter } from './emitter.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import { EMPTY_RESPONSE_RETRY, MALFORMED_TOOL_USE_RETRY, MAX_TOKENS_RESUME, refusalDetail, stopHookFeedback } from './meta-messages.ts';
import { promptSite } from './prompt-site.ts';
import { planRetry } from './retry-policy.ts';
import { runTools } from './run-tools.ts';
import { createToolPoolSite } from './tool-pool.ts';
import { createAgentsSite } from '../agents/site.ts';
import { SessionGrants } from '../permissions/session-grants.ts';
import { DEFAULT_BUDGETS, type LoopDeps, type LoopInput, type LoopState, type RunResult } from './types.ts';
import { withUserContent } from './history.ts';
import { TODO_TOOL_NAME, todoReattachment, todoReminderDue, todosAfterTools, todosFromHistory } from '../agents/todos/index.ts';
import { CostLedger } from '../cost/ledger.ts';
import { checkBudget } from '../cost/budget.ts';

/**
 * With a dollar ceiling (`input.budget`), every event the run yields — its subagents' and
 * teammates' included — goes through a cost ledger the budget check reads before each call.
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
  const budgets = { ...DEFAULT_BUDGETS, ...input.budgets };
  const signal = input.signal ?? new AbortController().signal;
  const cwd = input.cwd ?? deps.sandbox.workdir;
  const files = deps.files ?? new FileState();
  const permissions: PermissionContext = input.permissions ?? { mode: 'default', rules: [], workdir: deps.sandbox.workdir };
  const emit = new RunEmitter(deps.clock, deps.agentId ?? 'main', deps.parentToolUseId);
  const hooks: HookSiteEnv = { ...(deps.hooks ? { hooks: deps.hooks } : {}), sandbox: deps.sandbox, clock: deps.clock, signal, cwd };

  // Originals of tool results the context layers replaced by references stay readable.
  const initialContext = input.contextState ?? emptyContextState();
  // The pool: a bare deny removes a tool from the model's view (it cannot even try it); a live
  // pool (`input.toolPool`) is re-read before each request (tool-pool.ts).
  const toolPool = createToolPoolSite({
    initial: input.tools,
    live: input.toolPool,
    always: [readToolResultTool(storedResultsOf(() => context.latest()))],
    rules: permissions.rules,
  });
  const { hidden: hiddenTools } = toolPool.view();
  const hasTodoTool = toolPool.view().visible.some((t) => t.name === TODO_TOOL_NAME);
  const context = createContextSite({ input, deps, emit, hooks, tools: () => toolPool.view(), initial: initialContext });
  // Skills, background jobs and steering: one site, see agents/site.ts.
  const agents = createAgentsSite({ sandbox: deps.sandbox, clock: deps.clock, signal, emit, ...(input.steering ? { steering: input.steering } : {}), ...(input.skills ? { skills: input.skills } : {}) });
  const sessionGrants = deps.sessionGrants ?? new SessionGrants();
  // The model of this run's requests: `input.model`, until a fallback replaces it (once).
  let model = input.model;

  const changed = new Set<string>();
  const unwatch = deps.sandbox.fs.watch((e) => e.paths.forEach((p) => changed.add(p)));
  const takeChangedPaths = () => {
    const paths = [...changed].sort();
    changed.clear();
    return paths;
  };

  let state: LoopState = {
    messages: [...input.messages],
    turn: 0,
    usage: emptyUsage(),
    outputRecoveries: 0,
    modelRetries: 0,
    emptyRetryUsed: false,
    stopHookBlocks: 0,
    context: initialContext,
    lastRequest: null,
    reactiveCompactUsed: false,
    transition: null,
    // The plan survives follow-ups and resumes: it is read back from the history.
    todos: todosFromHistory(input.messages),
    turnsSinceTodoWrite: 0,
  };

  try {
    yield emit.stamp({
      type: 'run.start',
      model: input.model,
      modelClient: deps.model.name,
      sandbox: deps.sandbox.kind,
      tools: input.tools.map((t) => t.name),
      maxTurns: input.maxTurns,
    });
    if (hiddenTools.length > 0) {
      yield emit.stamp({ type: 'permission.prefilter', hidden: hiddenTools, visible: toolPool.view().visible.map((t) => t.name) });
    }
    if (input.settingsRead) yield emit.stamp(input.settingsRead);
    if (input.memoryInjected) yield emit.stamp(input.memoryInjected);
    for (const e of input.preludeEvents ?? []) yield emit.stamp(e);
    yield* agents.start();
    const last = state.messages[state.messages.length - 1];
    if (last?.role === 'user') {
      yield emit.stamp({ type: 'message.appended', origin: 'user', message: last, index: state.messages.length - 1 });
    }
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
      const back = prep.compaction ? todoReattachment(state, hasTodoTool) : null;
      if (back) {
        yield emit.stamp(back.event);
        const u = emit.addUser(messages, [back.block], 'meta');
        messages = u.messages;
        requestMessages = withUserContent(requestMessages, [back.block]);
        yield u.event;
      }
      const request: ModelRequest = { model, max_tokens: input.maxTokens, ...prep.request, messages: requestMessages };
      if (input.countTokens && deps.model.countTokens && !isRetry) yield emit.stamp(await context.count(request, prep.tokens.projected));
      // The budget site: stop before a call that would cross the run's dollar ceiling.
      const over = spend && input.budget ? checkBudget(input.budget, spend.totalUsd(), model, prep.tokens.projected) : null;
      if (over) {
        yield emit.stamp(over.event);
        return yield* emit.exit('max_budget', { ...state, messages, context: prep.nextState }, undefined, over.detail);
      }
      yield emit.stamp({ type: 'model.request', request, attempt });

      // The model call.
      const startedAt = deps.clock.now();
      const outcome = yield* emit.pass(callModel(deps.model, request, signal));
      const usage = addUsage(state.usage, outcome.usage);

      if (!outcome.ok) {
        const { error } = outcome;
        if (error.kind === 'aborted' || signal.aborted) {
          // Keep what the user already saw, minus half-made tool calls that cannot be answered.
          const kept = outcome.partial.filter((b) => b.type !== 'tool_use');
          let msgs = messages;
          if (kept.length > 0) {
            const a = emit.append(messages, { role: 'assistant', content: kept }, 'assistant');
            msgs = a.messages;
            yield a.event;
          }
          return yield* emit.exit('aborted', { ...state, messages: msgs, turn, usage, context: prep.nextState }, undefined, 'Stopped by the user.');
        }
        const retry = planRetry(error, state.modelRetries, budgets);
        if (retry.kind === 'too_long') {
          yield emit.stamp({ type: 'model.error', error: retry.error, attempt });
          return yield* emit.exit('model_error', { ...state, messages, turn, usage, context: prep.nextState }, retry.error, `${error.kind}: the server asked for a longer wait than this run allows`);
        }
        if (retry.kind === 'wait') {
          const delay = retry.delayMs;
          yield emit.stamp({ type: 'model.error', error, attempt, retryInMs: delay });
          try {
            await deps.clock.sleep(delay, signal);
          } catch {
            return yield* emit.exit('aborted', { ...state, messages, turn, usage, context: prep.nextState }, undefined, 'Stopped by the user while waiting to retry.');
          }
          state = {
            messages,
            turn,
            usage,
            outputRecoveries: state.outputRecoveries,
            modelRetries: state.modelRetries + 1,
            emptyRetryUsed: state.emptyRetryUsed,
            stopHookBlocks: state.stopHookBlocks,
            context: prep.nextState,
            lastRequest: state.lastRequest,
            reactiveCompactUsed: state.reactiveCompactUsed,
            transition: { reason: 'model_retry', detail: `retry ${state.modelRetries + 1} of ${retry.budget} after ${error.kind}` },
            todos: state.todos,
            turnsSinceTodoWrite: state.turnsSinceTodoWrite,
          };
          yield emit.next('model_retry', state.transition!.detail);
          continue;
        }
        if (error.kind === 'prompt_too_long' && !state.reactiveCompactUsed) {
          // Summarise and retry once per turn: the reactive_compact_retry continue site.
          yield emit.stamp({ type: 'model.error', error, attempt });
          const compacted = yield* context.assemble(messages, prep.nextState, true);
          if (compacted.compaction && compacted.committed) {
            const back = todoReattachment(state, hasTodoTool);
            let committed = compacted.committed;
            if (back) {
              yield emit.stamp(back.event);
              const u = emit.addUser(committed, [back.block], 'meta');
              committed = u.messages;
              yield u.event;
            }
            state = {
              messages: committed,
              turn,
              usage,
              outputRecoveries: state.outputRecoveries,
              modelRetries: state.modelRetries,
              emptyRetryUsed: state.emptyRetryUsed,
              stopHookBlocks: state.stopHookBlocks,
              context: compacted.nextState,
              lastRequest: state.lastRequest,
              reactiveCompactUsed: true,
              transition: {
                reason: 'reactive_compact_retry',
                detail: `summarised ${compacted.compaction.messagesBefore} messages into ${compacted.compaction.messagesAfter}`,
              },
              todos: state.todos,
              turnsSinceTodoWrite: state.turnsSinceTodoWrite,
            };
            yield emit.next('reactive_compact_retry', state.transition!.detail);
            continue;
          }
          const why = `prompt too long and the compact failed: ${compacted.compactError ?? 'unknown'}`;
          return yield* emit.exit('model_error', { ...state, messages, turn, usage, context: compacted.nextState }, error, why);
        }
        yield emit.stamp({ type: 'model.error', error, attempt });
        // The fallback site: overloaded past its retries, or a model the API does not know.
        if (input.fallbackModel && model !== input.fallbackModel && (error.kind === 'overloaded' || error.kind === 'not_found')) {
          const from = model;
          model = input.fallbackModel;
          yield emit.stamp({ type: 'model.fallback', from, to: model, error });
          state = {
            ...state,
            messages,
            turn,
            usage,
            modelRetries: 0,
            context: prep.nextState,
            transition: { reason: 'model_fallback', detail: `${from} → ${model} after ${error.kind}` },
          };
          yield emit.next('model_fallback', state.transition!.detail);
          continue;
        }
        const why = error.retryable ? `gave up after ${state.modelRetries} retries` : 'not retryable';
        return yield* emit.exit('model_error', { ...state, messages, turn, usage, context: prep.nextState }, error, `${error.kind}: ${why}`);
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
      const base = {
        turn,
        usage,
        modelRetries: 0,
        context: cache.state,
        lastRequest: request,
        reactiveCompactUsed: false,
        todos: state.todos,
        turnsSinceTodoWrite: state.turnsSinceTodoWrite,
      };

      if (stopReason === 'refusal') {
        return yield* emit.exit('refusal', { ...state, ...base, messages: msgs }, undefined, refusalDetail(outcome.stopDetails));
      }

      // The tool site: permissions, PreToolUse / PostToolUse hooks and the tools themselves.
      const toolUses = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      let results: (ToolResultBlock | TextBlock)[] = [];
      let stopRun: { reason: string } | undefined;
      if (toolUses.length > 0) {
        const ran = yield* emit.pass(
          runTools(toolUses, {
            tools: toolPool.view().visible,
            context: { sandbox: deps.sandbox, cwd, signal, files, clock: deps.clock, ids: deps.ids, agentId: emit.agentId, background: agents.background, grants: sessionGrants },
            malformed,
            takeChangedPaths,
            permissions,
            ...(deps.prompt ? { prompt: deps.prompt } : {}),
            session: sessionGrants,
            hooks,
          }),
        );
        results = [...ran.results, ...ran.notes];
        stopRun = ran.stopRun;
      }
      // The todo site: an accepted todo_write replaces the list; every other turn makes it staler.
      const todo = todosAfterTools(state, toolUses, results);
      if (todo.event) yield emit.stamp(todo.event);
      Object.assign(base, { todos: todo.todos, turnsSinceTodoWrite: todo.turnsSinceTodoWrite });
      if (stopRun && !signal.aborted) {
        const u = results.length > 0 ? emit.addUser(msgs, results, 'tool_results') : null;
        if (u) yield u.event;
        return yield* emit.exit('hook_stopped', { ...state, ...base, messages: u?.messages ?? msgs }, undefined, stopRun.reason);
      }

      if (stopReason === 'max_tokens') {
        if (state.outputRecoveries >= budgets.maxOutputTokensRecoveries) {
          const u = results.length > 0 ? emit.addUser(msgs, results, 'tool_results') : null;
          if (u) yield u.event;
          const error: ModelError = {
            kind: 'unknown',
            message: `The model hit its output limit ${state.outputRecoveries + 1} times in a row. Raise max tokens or ask for smaller steps.`,
            retryable: false,
          };
          return yield* emit.exit('model_error', { ...state, ...base, messages: u?.messages ?? msgs }, error, 'max_tokens recovery budget spent');
        }
        const u = emit.addUser(msgs, [...results, { type: 'text', text: MAX_TOKENS_RESUME }], results.length > 0 ? 'tool_results' : 'meta');
        yield u.event;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: state.outputRecoveries + 1,
          emptyRetryUsed: state.emptyRetryUsed,
          stopHookBlocks: 0,
          transition: {
            reason: 'max_output_tokens_recovery',
            detail: `recovery ${state.outputRecoveries + 1} of ${budgets.maxOutputTokensRecoveries}`,
          },
        };
        yield emit.next('max_output_tokens_recovery', state.transition!.detail);
        continue;
      }

      if (toolUses.length > 0) {
        // Nudge once for malformed input; never twice in a row (the error results still go back).
        const nudge = malformed.length > 0 && transition?.reason !== 'malformed_tool_use_retry';
        const reminder = todoReminderDue(base, hasTodoTool);
        if (reminder) yield emit.stamp(reminder.event);
        const content = [
          ...results,
          ...(nudge ? [{ type: 'text' as const, text: MALFORMED_TOOL_USE_RETRY }] : []),
          ...(reminder ? [reminder.block] : []),
        ];
        const u = emit.addUser(msgs, content, 'tool_results');
        yield u.event;
        const reason: TransitionReason = nudge ? 'malformed_tool_use_retry' : 'next_turn';
        const detail = nudge ? `${malformed.length} tool call(s) with invalid JSON input` : undefined;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: 0,
          emptyRetryUsed: false,
          stopHookBlocks: 0,
          transition: { reason, ...(detail ? { detail } : {}) },
          ...(reminder ? { turnsSinceTodoWrite: 0 } : {}),
        };
        yield emit.next(reason, detail);
        continue;
      }

      if (stopReason === 'pause_turn') {
        // The server paused a long turn; sending the reply back lets the model carry on.
        state = {
          ...base,
          messages: msgs,
          outputRecoveries: 0,
          emptyRetryUsed: false,
          stopHookBlocks: 0,
          transition: { reason: 'next_turn', detail: 'pause_turn' },
        };
        yield emit.next('next_turn', 'pause_turn');
        continue;
      }

      if (blocks.length === 0 && !state.emptyRetryUsed) {
        const u = emit.addUser(msgs, [{ type: 'text', text: EMPTY_RESPONSE_RETRY }], 'meta');
        yield u.event;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: state.outputRecoveries,
          emptyRetryUsed: true,
          stopHookBlocks: state.stopHookBlocks,
          transition: { reason: 'empty_response_retry' },
        };
        yield emit.next('empty_response_retry', 'the reply was empty');
        continue;
      }

      // Something was waiting for the model: a queued steering message or a background job's result.
      const waiting = await agents.atStop(turn + 1);
      if (waiting) {
        state = { ...base, messages: msgs, outputRecoveries: 0, emptyRetryUsed: false, stopHookBlocks: 0, transition: { reason: waiting.reason, detail: waiting.detail } };
        yield emit.next(waiting.reason, waiting.detail);
        continue;
      }

      // The stop site: Stop hooks may keep the model going, a bounded number of times.
      const buffered: TraceEvent[] = [];
      const stop = await drainInto(
        fireHook(
          deps.subagent
            ? { event: 'SubagentStop', stopHookActive: transition?.reason === 'stop_hook_blocking', agentId: emit.agentId, agentType: deps.subagent.agentType }
            : { event: 'Stop', stopHookActive: transition?.reason === 'stop_hook_blocking', lastAssistantMessage: textOf(assistant) },
          hooks,
        ),
        (e) => buffered.push(emit.stamp(e)),
      );
      yield* buffered;
      if (stop?.stopRun) return yield* emit.exit('hook_stopped', { ...state, ...base, messages: msgs }, undefined, stop.stopRun.reason);
      if (stop?.block && state.stopHookBlocks < budgets.stopHookBlocks && !signal.aborted) {
        const u = emit.addUser(msgs, [{ type: 'text', text: stopHookFeedback(stop.reason) }], 'meta');
        yield u.event;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: 0,
          emptyRetryUsed: false,
          stopHookBlocks: state.stopHookBlocks + 1,
          transition: { reason: 'stop_hook_blocking', detail: `block ${state.stopHookBlocks + 1} of ${budgets.stopHookBlocks}` },
        };
        yield emit.next('stop_hook_blocking', state.transition!.detail);
        continue;
      }
      const why = stop?.block ? `a Stop hook asked to continue, but its budget of ${budgets.stopHookBlocks} is spent` : undefined;
      if (deps.memoryStore) {
        // Facts the person asked to keep ("remember: …") go to the memory store for later sessions.
        const extracted = await rememberExchange({ store: deps.memoryStore, messages: msgs, ids: deps.ids, now: deps.clock.now() });
        if (extracted.added.length > 0 || extracted.problems.length > 0) yield emit.stamp(extracted);
      }
      return yield* emit.exit('completed', { ...state, ...base, messages: msgs }, undefined, why);
    }
  } finally {
    unwatch();
    // A run never leaves jobs behind (also when the consumer stops pulling before the exit).
    agents.background.killAll();
  }
}
