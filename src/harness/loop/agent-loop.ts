/**
 * The agent loop: assemble the request → call the model → run the tools it asked for → repeat.
 *
 * It is an async generator so the consumer decides the pace: pulling one event is a "step",
 * pulling until a kind of event is a breakpoint. All state lives in one `LoopState`, rebuilt whole
 * at every continue site with a `transition.reason`; every retry changes what the model sees and is
 * bounded by a budget kept in that state.
 */
import type { Message, ModelRequest, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { addUsage, emptyUsage } from '../messages.ts';
import type { ModelError } from '../ports.ts';
import { FileState } from '../tools/file-state.ts';
import { toolSchemaOf } from '../tools/tool.ts';
import type { ExitReason, MessageOrigin, TraceEvent, TraceEventBody, TransitionReason } from '../trace.ts';
import { backoffMs } from './backoff.ts';
import { callModel, type ModelCallOutcome } from './call-model.ts';
import { estimateTokens } from './estimate-tokens.ts';
import { withUserContent } from './history.ts';
import { EMPTY_RESPONSE_RETRY, MALFORMED_TOOL_USE_RETRY, MAX_TOKENS_RESUME } from './meta-messages.ts';
import { runTools } from './run-tools.ts';
import { DEFAULT_BUDGETS, type LoopDeps, type LoopInput, type LoopState, type RunResult } from './types.ts';

export async function* agentLoop(input: LoopInput, deps: LoopDeps): AsyncGenerator<TraceEvent, RunResult> {
  const agentId = deps.agentId ?? 'main';
  const budgets = { ...DEFAULT_BUDGETS, ...input.budgets };
  const signal = input.signal ?? new AbortController().signal;
  const cwd = input.cwd ?? deps.sandbox.workdir;
  const files = deps.files ?? new FileState();
  const toolSchemas = input.tools.map(toolSchemaOf);

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
    return { reason, messages: s.messages, turns: s.turn, usage: s.usage, ...(error ? { error } : {}) };
  }
  const next = (reason: TransitionReason, detail?: string) =>
    stamp({ type: 'transition', reason, ...(detail ? { detail } : {}) });

  try {
    yield stamp({
      type: 'run.start',
      model: input.model,
      modelClient: deps.model.name,
      sandbox: deps.sandbox.kind,
      tools: input.tools.map((t) => t.name),
      maxTurns: input.maxTurns,
    });
    const last = state.messages[state.messages.length - 1];
    if (last?.role === 'user') {
      yield stamp({ type: 'message.appended', origin: 'user', message: last, index: state.messages.length - 1 });
    }

    while (true) {
      const { messages, transition } = state;
      const isRetry = transition?.reason === 'model_retry';
      if (signal.aborted) return yield* exit('aborted', state, undefined, 'Stopped by the user.');
      if (!isRetry && state.turn >= input.maxTurns) {
        return yield* exit('max_turns', state, undefined, `Reached the limit of ${input.maxTurns} model calls.`);
      }
      const turn = isRetry ? state.turn : state.turn + 1;
      const attempt = isRetry ? state.modelRetries + 1 : 1;
      currentTurn = turn;
      if (!isRetry) yield stamp({ type: 'turn.start' });

      const request: ModelRequest = {
        model: input.model,
        max_tokens: input.maxTokens,
        system: input.system,
        tools: toolSchemas,
        messages,
      };
      const parts = {
        system: estimateTokens(input.system),
        tools: estimateTokens(JSON.stringify(toolSchemas)),
        messages: estimateTokens(JSON.stringify(messages)),
      };
      yield stamp({
        type: 'context.assembled',
        parts,
        total: parts.system + parts.tools + parts.messages,
        messageCount: messages.length,
      });
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
          return yield* exit('aborted', { ...state, messages: msgs, turn, usage }, undefined, 'Stopped by the user.');
        }
        if (error.retryable && state.modelRetries < budgets.modelRetries) {
          const delay = error.retryAfterMs ?? backoffMs(state.modelRetries, budgets.maxBackoffMs);
          yield stamp({ type: 'model.error', error, attempt, retryInMs: delay });
          try {
            await deps.clock.sleep(delay, signal);
          } catch {
            return yield* exit('aborted', { ...state, turn, usage }, undefined, 'Stopped by the user while waiting to retry.');
          }
          state = {
            messages,
            turn,
            usage,
            outputRecoveries: state.outputRecoveries,
            modelRetries: state.modelRetries + 1,
            emptyRetryUsed: state.emptyRetryUsed,
            transition: { reason: 'model_retry', detail: `retry ${state.modelRetries + 1} of ${budgets.modelRetries} after ${error.kind}` },
          };
          yield next('model_retry', state.transition!.detail);
          continue;
        }
        yield stamp({ type: 'model.error', error, attempt });
        const why = error.retryable ? `gave up after ${state.modelRetries} retries` : 'not retryable';
        return yield* exit('model_error', { ...state, turn, usage }, error, `${error.kind}: ${why}`);
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
      const base = { turn, usage, modelRetries: 0 };

      if (stopReason === 'refusal') {
        return yield* exit('refusal', { ...state, ...base, messages: msgs }, undefined, 'The model declined to continue.');
      }

      const toolUses = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      let results: ToolResultBlock[] = [];
      if (toolUses.length > 0) {
        const run = runTools(toolUses, {
          tools: input.tools,
          context: { sandbox: deps.sandbox, cwd, signal, files, clock: deps.clock, ids: deps.ids, agentId },
          malformed,
          takeChangedPaths,
        });
        let r = await run.next();
        while (!r.done) {
          yield stamp(r.value);
          r = await run.next();
        }
        results = r.value;
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
          transition: { reason, ...(detail ? { detail } : {}) },
        };
        yield next(reason, detail);
        continue;
      }

      if (stopReason === 'pause_turn') {
        // The server paused a long turn; sending the reply back lets the model carry on.
        state = { ...base, messages: msgs, outputRecoveries: 0, emptyRetryUsed: false, transition: { reason: 'next_turn', detail: 'pause_turn' } };
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
          transition: { reason: 'empty_response_retry' },
        };
        yield next('empty_response_retry', 'the reply was empty');
        continue;
      }

      return yield* exit('completed', { ...state, ...base, messages: msgs });
    }
  } finally {
    unwatch();
  }
}
