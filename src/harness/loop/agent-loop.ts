/**
 * The agent loop: assemble the request → call the model → run the tools it asked for → repeat.
 *
 * It is an async generator so the consumer decides the pace: pulling one event is a "step",
 * pulling until a kind of event is a breakpoint. All state lives in one `LoopState`, rebuilt whole
 * at every continue site with a `transition.reason`; every retry changes what the model sees and is
 * bounded by a budget kept in that state.
 */
import type { Message, ModelRequest, TextBlock, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { addUsage, emptyUsage, textOf } from '../messages.ts';
import { prefilterTools } from '../permissions/prefilter.ts';
import type { PermissionContext } from '../permissions/types.ts';
import type { ModelError } from '../ports.ts';
import { FileState } from '../tools/file-state.ts';
import { toolSchemaOf } from '../tools/tool.ts';
import type { ExitReason, MessageOrigin, TraceEvent, TraceEventBody, TransitionReason } from '../trace.ts';
import { prepareContext, reactiveCompact, recordCacheUsage, type PrepareContextArgs, type PreparedContext } from '../context/pipeline.ts';
import { emptyContextState } from '../context/state.ts';
import { modelSummarizer, type Summarize } from '../context/summarizer.ts';
import { readToolResultTool, storedResultsOf } from '../context/read-tool-result-tool.ts';
import { rememberExchange } from '../memory/remember.ts';
import { backoffMs } from './backoff.ts';
import { callModel, type ModelCallOutcome } from './call-model.ts';
import { withUserContent } from './history.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import { EMPTY_RESPONSE_RETRY, MALFORMED_TOOL_USE_RETRY, MAX_TOKENS_RESUME, stopHookFeedback } from './meta-messages.ts';
import { runTools } from './run-tools.ts';
import { DEFAULT_BUDGETS, type LoopDeps, type LoopInput, type LoopState, type RunResult } from './types.ts';

export async function* agentLoop(input: LoopInput, deps: LoopDeps): AsyncGenerator<TraceEvent, RunResult> {
  const agentId = deps.agentId ?? 'main';
  const budgets = { ...DEFAULT_BUDGETS, ...input.budgets };
  const signal = input.signal ?? new AbortController().signal;
  const cwd = input.cwd ?? deps.sandbox.workdir;
  const files = deps.files ?? new FileState();
  const permissions: PermissionContext = input.permissions ?? { mode: 'default', rules: [], workdir: deps.sandbox.workdir };
  // Originals of tool results the context layers replaced by references stay readable.
  // `latestContext` is the newest pipeline state, even mid-turn (before the next LoopState exists).
  let latestContext = input.contextState ?? emptyContextState();
  const tools = [...input.tools, readToolResultTool(storedResultsOf(() => latestContext))];
  // A bare deny removes the tool from the model's view: it cannot even try it.
  const { visible: visibleTools, hidden: hiddenTools } = prefilterTools(tools, permissions.rules);
  const toolCaps = Object.fromEntries(visibleTools.map((t) => [t.name, t.maxResultChars]));
  const toolSchemas = visibleTools.map(toolSchemaOf);
  const hookEnv: HookSiteEnv = { ...(deps.hooks ? { hooks: deps.hooks } : {}), sandbox: deps.sandbox, clock: deps.clock, signal, cwd };

  let seq = 0;
  let currentTurn = 0;
  const stamp = (body: TraceEventBody): TraceEvent =>
    ({ ...body, seq: ++seq, ts: deps.clock.now(), agentId, turn: currentTurn }) as TraceEvent;

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
    context: latestContext,
    lastRequest: null,
    reactiveCompactUsed: false,
    transition: null,
  };

  /** Appends (or, when merging into the last user message, replaces) and reports it. */
  const append = (messages: Message[], message: Message, origin: MessageOrigin) => {
    const next = [...messages, message];
    return { messages: next, event: stamp({ type: 'message.appended', origin, message, index: next.length - 1 }) };
  };
  const addUser = (messages: Message[], content: Parameters<typeof withUserContent>[1], origin: MessageOrigin) => {
    const next = withUserContent(messages, content);
    const index = next.length - 1;
    return { messages: next, event: stamp({ type: 'message.appended', origin, message: next[index]!, index }) };
  };

  function* exit(reason: ExitReason, s: LoopState, error?: ModelError, detail?: string): Generator<TraceEvent, RunResult> {
    yield stamp({ type: 'transition', reason, ...(detail ? { detail } : {}) });
    yield stamp({ type: 'run.end', reason, turns: s.turn, usage: s.usage, ...(error ? { error } : {}) });
    return { reason, messages: s.messages, turns: s.turn, usage: s.usage, contextState: s.context, ...(error ? { error } : {}) };
  }
  const next = (reason: TransitionReason, detail?: string) =>
    stamp({ type: 'transition', reason, ...(detail ? { detail } : {}) });
  /** Fires one hook event; its `hook.run` events are buffered in `out` for the caller to yield. */
  const hook = (payload: Parameters<typeof fireHook>[0], out: TraceEvent[]) =>
    drainInto(fireHook(payload, hookEnv), (e) => out.push(stamp(e)));

  // Auto-compact's summary call, with PreCompact hooks first (their events pass through).
  const baseSummarize: Summarize = deps.summarize ?? modelSummarizer(deps.model, { model: input.model });
  const summarize: Summarize = async function* (messages, sig, info) {
    yield* fireHook({ event: 'PreCompact', trigger: 'auto', customInstructions: '' }, hookEnv);
    const r = baseSummarize(messages, sig, info);
    return Symbol.asyncIterator in r ? yield* r : await r;
  };
  /** Runs the context pipeline, adopting a rewritten history; PostCompact fires after a compaction. */
  async function* assemble(messages: Message[], context: PrepareContextArgs['state'], reactive: boolean): AsyncGenerator<TraceEvent, PreparedContext> {
    const args: PrepareContextArgs = {
      messages,
      system: input.system,
      tools: toolSchemas,
      model: input.model,
      state: context,
      toolCaps,
      summarize,
      signal,
      now: deps.clock.now(),
      ...(input.context ? { settings: input.context } : {}),
      ...(input.memory ? { memory: input.memory } : {}),
    };
    const gen = reactive ? reactiveCompact(args) : prepareContext(args);
    let step = await gen.next();
    while (!step.done) {
      yield stamp(step.value);
      step = await gen.next();
    }
    const prep = step.value;
    latestContext = prep.nextState;
    if (prep.committed) {
      const layers = prep.compaction ? ['auto_compact'] : [];
      yield stamp({ type: 'history.rewritten', messages: prep.committed, layers, messagesBefore: messages.length });
    }
    if (prep.compaction) {
      const buffered: TraceEvent[] = [];
      await hook({ event: 'PostCompact', trigger: 'auto', summary: prep.compaction.summary }, buffered);
      yield* buffered;
    }
    return prep;
  }

  try {
    yield stamp({
      type: 'run.start',
      model: input.model,
      modelClient: deps.model.name,
      sandbox: deps.sandbox.kind,
      tools: input.tools.map((t) => t.name),
      maxTurns: input.maxTurns,
    });
    if (hiddenTools.length > 0) {
      yield stamp({ type: 'permission.prefilter', hidden: hiddenTools, visible: visibleTools.map((t) => t.name) });
    }
    const last = state.messages[state.messages.length - 1];
    if (input.memoryInjected) yield stamp(input.memoryInjected);
    if (last?.role === 'user') {
      yield stamp({ type: 'message.appended', origin: 'user', message: last, index: state.messages.length - 1 });
      // SessionStart and UserPromptSubmit hooks may add context to the prompt, or block it.
      const extra: TextBlock[] = [];
      const buffered: TraceEvent[] = [];
      if (input.sessionStart) {
        const o = await hook({ event: 'SessionStart', source: input.sessionStart, model: input.model }, buffered);
        yield* buffered.splice(0);
        if (o?.additionalContext) extra.push({ type: 'text', text: `SessionStart hook context:\n${o.additionalContext}` });
        if (o?.stopRun) return yield* exit('hook_stopped', state, undefined, o.stopRun.reason);
      }
      const o = await hook({ event: 'UserPromptSubmit', prompt: textOf(last) }, buffered);
      yield* buffered.splice(0);
      if (o?.block) {
        // The blocked prompt never enters the history.
        const dropped = { ...state, messages: state.messages.slice(0, -1) };
        return yield* exit('prompt_blocked', dropped, undefined, `A UserPromptSubmit hook blocked the prompt: ${o.reason ?? 'no reason given'}`);
      }
      if (o?.stopRun) return yield* exit('hook_stopped', state, undefined, o.stopRun.reason);
      if (o?.additionalContext) extra.push({ type: 'text', text: `UserPromptSubmit hook context:\n${o.additionalContext}` });
      if (extra.length > 0) {
        const u = addUser(state.messages, extra, 'meta');
        state = { ...state, messages: u.messages };
        yield u.event;
      }
    }

    while (true) {
      const { transition } = state;
      let { messages } = state;
      // A retry answers the same turn: the server failed, or the history was compacted to fit.
      const isRetry = transition?.reason === 'model_retry' || transition?.reason === 'reactive_compact_retry';
      if (signal.aborted) return yield* exit('aborted', state, undefined, 'Stopped by the user.');
      if (!isRetry && state.turn >= input.maxTurns) {
        return yield* exit('max_turns', state, undefined, `Reached the limit of ${input.maxTurns} model calls.`);
      }
      const turn = isRetry ? state.turn : state.turn + 1;
      const attempt = isRetry ? state.modelRetries + 1 : 1;
      currentTurn = turn;
      if (!isRetry) yield stamp({ type: 'turn.start' });

      // The five context layers run on the stored history; the model sees their projection.
      const prep = yield* assemble(messages, state.context, false);
      if (prep.committed) messages = prep.committed;
      const request: ModelRequest = { model: input.model, max_tokens: input.maxTokens, ...prep.request };
      yield stamp({ type: 'model.request', request, attempt });

      const startedAt = deps.clock.now();
      const call = callModel(deps.model, request, signal);
      let step = await call.next();
      while (!step.done) {
        yield stamp(step.value);
        step = await call.next();
      }
      const outcome: ModelCallOutcome = step.value;
      const usage = addUsage(state.usage, outcome.usage);

      if (!outcome.ok) {
        const { error } = outcome;
        if (error.kind === 'aborted' || signal.aborted) {
          // Keep what the user already saw, minus half-made tool calls that cannot be answered.
          const kept = outcome.partial.filter((b) => b.type !== 'tool_use');
          let msgs = messages;
          if (kept.length > 0) {
            const a = append(messages, { role: 'assistant', content: kept }, 'assistant');
            msgs = a.messages;
            yield a.event;
          }
          return yield* exit('aborted', { ...state, messages: msgs, turn, usage, context: prep.nextState }, undefined, 'Stopped by the user.');
        }
        if (error.retryable && state.modelRetries < budgets.modelRetries) {
          const delay = error.retryAfterMs ?? backoffMs(state.modelRetries, budgets.maxBackoffMs);
          yield stamp({ type: 'model.error', error, attempt, retryInMs: delay });
          try {
            await deps.clock.sleep(delay, signal);
          } catch {
            return yield* exit('aborted', { ...state, messages, turn, usage, context: prep.nextState }, undefined, 'Stopped by the user while waiting to retry.');
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
            transition: { reason: 'model_retry', detail: `retry ${state.modelRetries + 1} of ${budgets.modelRetries} after ${error.kind}` },
          };
          yield next('model_retry', state.transition!.detail);
          continue;
        }
        if (error.kind === 'prompt_too_long' && !state.reactiveCompactUsed) {
          // Summarise and retry once per turn: the reactive_compact_retry continue site.
          yield stamp({ type: 'model.error', error, attempt });
          const compacted = yield* assemble(messages, prep.nextState, true);
          if (compacted.compaction && compacted.committed) {
            state = {
              messages: compacted.committed,
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
            };
            yield next('reactive_compact_retry', state.transition!.detail);
            continue;
          }
          return yield* exit('model_error', { ...state, messages, turn, usage, context: compacted.nextState }, error, `prompt too long and the compact failed: ${compacted.compactError ?? 'unknown'}`);
        }
        yield stamp({ type: 'model.error', error, attempt });
        const why = error.retryable ? `gave up after ${state.modelRetries} retries` : 'not retryable';
        return yield* exit('model_error', { ...state, messages, turn, usage, context: prep.nextState }, error, `${error.kind}: ${why}`);
      }

      const { blocks, stopReason, malformed } = outcome;
      const assistant: Message = { role: 'assistant', content: blocks };
      yield stamp({
        type: 'model.response',
        stopReason,
        usage: outcome.usage,
        totalUsage: usage,
        message: assistant,
        ms: deps.clock.now() - startedAt,
      });

      // An empty assistant message is never sent back: it would be rejected by the API.
      let msgs = messages;
      if (blocks.length > 0) {
        const a = append(msgs, assistant, 'assistant');
        msgs = a.messages;
        yield a.event;
      }
      // The cache numbers of this call, and what (if anything) broke the cached prefix.
      const cache = recordCacheUsage(prep.nextState, outcome.usage, {
        ...(state.lastRequest ? { prev: state.lastRequest } : {}),
        current: request,
      });
      yield stamp(cache.event);
      const base = { turn, usage, modelRetries: 0, context: cache.state, lastRequest: request, reactiveCompactUsed: false };

      if (stopReason === 'refusal') {
        return yield* exit('refusal', { ...state, ...base, messages: msgs }, undefined, 'The model declined to continue.');
      }

      const toolUses = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      let results: (ToolResultBlock | TextBlock)[] = [];
      let stopRun: { reason: string } | undefined;
      if (toolUses.length > 0) {
        const run = runTools(toolUses, {
          tools: visibleTools,
          context: { sandbox: deps.sandbox, cwd, signal, files, clock: deps.clock, ids: deps.ids, agentId },
          malformed,
          takeChangedPaths,
          permissions,
          ...(deps.prompt ? { prompt: deps.prompt } : {}),
          ...(deps.sessionGrants ? { session: deps.sessionGrants } : {}),
          hooks: hookEnv,
        });
        let r = await run.next();
        while (!r.done) {
          yield stamp(r.value);
          r = await run.next();
        }
        results = [...r.value.results, ...r.value.notes];
        stopRun = r.value.stopRun;
      }
      if (stopRun && !signal.aborted) {
        const u = results.length > 0 ? addUser(msgs, results, 'tool_results') : null;
        if (u) yield u.event;
        return yield* exit('hook_stopped', { ...state, ...base, messages: u?.messages ?? msgs }, undefined, stopRun.reason);
      }

      if (stopReason === 'max_tokens') {
        if (state.outputRecoveries >= budgets.maxOutputTokensRecoveries) {
          const u = results.length > 0 ? addUser(msgs, results, 'tool_results') : null;
          if (u) yield u.event;
          const error: ModelError = {
            kind: 'unknown',
            message: `The model hit its output limit ${state.outputRecoveries + 1} times in a row. Raise max tokens or ask for smaller steps.`,
            retryable: false,
          };
          return yield* exit('model_error', { ...state, ...base, messages: u?.messages ?? msgs }, error, 'max_tokens recovery budget spent');
        }
        const u = addUser(msgs, [...results, { type: 'text', text: MAX_TOKENS_RESUME }], results.length > 0 ? 'tool_results' : 'meta');
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
        yield next('max_output_tokens_recovery', state.transition!.detail);
        continue;
      }

      if (toolUses.length > 0) {
        // Nudge once for malformed input; never twice in a row (the error results still go back).
        const nudge = malformed.length > 0 && transition?.reason !== 'malformed_tool_use_retry';
        const content: Parameters<typeof withUserContent>[1] = nudge
          ? [...results, { type: 'text', text: MALFORMED_TOOL_USE_RETRY }]
          : results;
        const u = addUser(msgs, content, 'tool_results');
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
        };
        yield next(reason, detail);
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
        yield next('next_turn', 'pause_turn');
        continue;
      }

      if (blocks.length === 0 && !state.emptyRetryUsed) {
        const u = addUser(msgs, [{ type: 'text', text: EMPTY_RESPONSE_RETRY }], 'meta');
        yield u.event;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: state.outputRecoveries,
          emptyRetryUsed: true,
          stopHookBlocks: state.stopHookBlocks,
          transition: { reason: 'empty_response_retry' },
        };
        yield next('empty_response_retry', 'the reply was empty');
        continue;
      }

      // The model wants to stop: Stop hooks may keep it going, a bounded number of times.
      const buffered: TraceEvent[] = [];
      const stop = await hook(
        { event: 'Stop', stopHookActive: transition?.reason === 'stop_hook_blocking', lastAssistantMessage: textOf(assistant) },
        buffered,
      );
      yield* buffered;
      if (stop?.stopRun) return yield* exit('hook_stopped', { ...state, ...base, messages: msgs }, undefined, stop.stopRun.reason);
      if (stop?.block && state.stopHookBlocks < budgets.stopHookBlocks && !signal.aborted) {
        const u = addUser(msgs, [{ type: 'text', text: stopHookFeedback(stop.reason) }], 'meta');
        yield u.event;
        state = {
          ...base,
          messages: u.messages,
          outputRecoveries: 0,
          emptyRetryUsed: false,
          stopHookBlocks: state.stopHookBlocks + 1,
          transition: { reason: 'stop_hook_blocking', detail: `block ${state.stopHookBlocks + 1} of ${budgets.stopHookBlocks}` },
        };
        yield next('stop_hook_blocking', state.transition!.detail);
        continue;
      }
      const why = stop?.block ? `a Stop hook asked to continue, but its budget of ${budgets.stopHookBlocks} is spent` : undefined;
      if (deps.memoryStore) {
        // Facts the person asked to keep ("remember: …") go to the memory store for later sessions.
        const extracted = await rememberExchange({ store: deps.memoryStore, messages: msgs, ids: deps.ids, now: deps.clock.now() });
        if (extracted.added.length > 0 || extracted.problems.length > 0) yield stamp(extracted);
      }
      return yield* exit('completed', { ...state, ...base, messages: msgs }, undefined, why);
    }
  } finally {
    unwatch();
  }
}
