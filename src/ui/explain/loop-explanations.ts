/**
 * The explanations of the loop's own events, spread into `EVENT_EXPLANATIONS`: a run's start and
 * end, turns, the tool pool, messages appended, context assembly and compaction, the prompt cache,
 * model calls and their errors, a replay diverging, the fallback model and the dollar ceiling.
 */
import type { EventExplanations } from './event-explanations.ts';
import { list } from './list-text.ts';

type Keys =
  | 'run.start'
  | 'turn.start'
  | 'permission.prefilter'
  | 'tools.changed'
  | 'transition'
  | 'message.appended'
  | 'run.end'
  | 'history.rewritten'
  | 'context.assembled'
  | 'context.counted'
  | 'compaction.layer'
  | 'cache.stats'
  | 'model.request'
  | 'model.delta'
  | 'model.response'
  | 'model.error'
  | 'replay.diverged'
  | 'model.fallback'
  | 'budget.exceeded';

export const LOOP_EVENT_EXPLANATIONS: Pick<EventExplanations, Keys> = {
  'run.start': {
    means: 'A run began: one prompt, sent through the loop until an exit.',
    why: (e) => `You sent a prompt. The run uses ${e.modelClient} (${e.model}) on the ${e.sandbox} sandbox, may call ${list(e.tools)}, and stops after at most ${e.maxTurns} model calls.`,
    otherwise: 'Nothing runs until a prompt is sent.',
    lesson: 'parallel-exploration',
    terms: ['turn', 'budget'],
  },
  'turn.start': {
    means: 'The loop starts a new turn: it will assemble the context and call the model.',
    why: (e) => `The previous transition went round again, so turn ${e.turn} starts. Retries of a failed call stay in their turn and do not start a new one.`,
    otherwise: 'Had the previous transition been an exit, the run would have ended instead.',
    lesson: 'parallel-exploration',
    terms: ['turn', 'transition'],
  },
  'permission.prefilter': {
    means: 'Tools named by a bare deny rule were removed from the tool list before the model saw it.',
    why: (e) => `Hidden: ${e.hidden.map((h) => `\`${h.name}\` by \`${h.rule}\``).join(', ')}. The model sees only ${list(e.visible)}.`,
    otherwise: 'Without the bare deny the model would see the tool, call it, and be refused at the rules stage — a wasted turn.',
    lesson: 'tool-hiding',
    terms: ['rule', 'permission-stage'],
  },
  'tools.changed': {
    means: 'The tool pool changed while the run worked — you saved, edited or deleted a custom tool, or the model loaded a deferred tool with tool_search — so the harness rebuilt the tool list before this request. The same prefilter, permission pipeline and hooks judge the new tools from this call on.',
    why: (e) =>
      `${[e.loaded?.length ? `loaded ${list(e.loaded)} (${e.why ?? 'tool_search'}), appended at the end of the list` : '',e.added.length ? `added ${list(e.added)}` : '', e.changed.length ? `changed ${list(e.changed)}` : '', e.removed.length ? `removed ${list(e.removed)}` : ''].filter(Boolean).join('; ') || 'reordered'}.${e.hidden?.length ? ` Hidden by a bare deny: ${e.hidden.map((h) => `\`${h.name}\` by \`${h.rule}\``).join(', ')}.` : ''} The next request offers ${list(e.visible)}.`,
    otherwise: 'Without it a tool saved mid-run would wait for the next run, and the model could not call what you just wrote. The price: the tools lead the cached prefix, so this request writes the cache afresh.',
    lesson: 'custom-tool',
    terms: ['rule', 'permission-stage'],
  },
  transition: {
    means: 'The loop decided how this turn ends: go round again or stop. The reason says which site decided.',
    why: (e) => `Reason \`${e.reason}\`${e.detail ? ` — ${e.detail}` : ''}.`,
    otherwise: 'Every turn ends in exactly one transition; see the reason below for the alternative.',
    lesson: 'lesson-follow-ups',
    terms: ['transition', 'continue-site', 'exit'],
  },
  'message.appended': {
    means: 'A message entered the stored history — the conversation the next request is built from.',
    why: (e) =>
      ({
        user: `Your prompt became message #${e.index}.`,
        assistant: `The model’s reply became message #${e.index}.`,
        tool_results: `The results of the tool calls went into message #${e.index}, as the user side of the exchange (the API requires a result for every call).`,
        meta: `The harness added an instruction of its own as message #${e.index} (a recovery or retry nudge).`,
        synthetic: `The harness wrote results itself into message #${e.index} (for example “interrupted”), so every call still has a result.`,
      })[e.origin],
    otherwise: 'Messages are never sent twice: without this append the next request would not contain it.',
    lesson: 'fix-a-bug',
    terms: ['tool-use-id'],
  },
  'run.end': {
    means: 'The run is over. It carries the exit reason, the turns used and the token usage summed over the run.',
    why: (e) => `Ended \`${e.reason}\` after ${e.turns} turn(s), ${e.usage.input_tokens} input and ${e.usage.output_tokens} output tokens${e.error ? `: ${e.error.message}` : ''}.`,
    otherwise: 'A run ends exactly once, right after its exit transition.',
    lesson: 'fix-a-bug',
    terms: ['exit'],
  },
  'history.rewritten': {
    means: 'A compaction layer changed the stored history for good (not just what this request shows).',
    why: (e) => `${e.layers.length ? list(e.layers) : 'The context layers'} went from ${e.messagesBefore} to ${e.messages.length} stored messages.`,
    otherwise: 'The history would keep growing until the request no longer fits the context window.',
    lesson: 'auto-compact',
    terms: ['compaction-layer', 'projection'],
  },
  'context.assembled': {
    means: 'The request for this turn was built: system prompt, tool list, memory and the (projected) messages, with a token estimate per part.',
    why: (e) =>
      `About ${e.total} tokens (system ${e.parts.system}, tools ${e.parts.tools}, messages ${e.parts.messages}) over ${e.messageCount} messages${e.window ? ` of a ${e.window}-token window` : ''}${e.threshold ? `; auto-compact starts at ${e.threshold.tokens} (${Math.round(e.threshold.fraction * 100)}%)` : ''}.`,
    otherwise: 'Every model call is preceded by one; it is what the compaction layers measure against.',
    lesson: 'budget-reduction',
    terms: ['compaction-layer', 'projection'],
  },
  'context.counted': {
    means: 'The API counted the request’s input tokens (`count_tokens`), beside our chars/4 estimate.',
    why: (e) => (e.actual === null ? `The count failed: ${e.error ?? 'no reason given'}.` : `Estimate ${e.estimate}, actual ${e.actual}${e.relativeError !== undefined ? ` (off by ${Math.round(e.relativeError * 100)}%)` : ''}.`),
    otherwise: 'Only the estimate would be shown; exact counts are asked for in Settings and need a live model.',
    lesson: 'budget-reduction',
    terms: ['compaction-layer'],
  },
  'compaction.layer': {
    means: 'One of the five compaction layers ran before the model call; it either fired (changed something) or stayed idle.',
    why: (e) => `${e.layer} ${e.fired ? 'fired' : 'stayed idle'}: ${e.reason} (${e.tokensBefore} → ${e.tokensAfter} tokens${e.committed ? ', committed to the history' : ''}).`,
    otherwise: 'An idle layer leaves the request as it is; a fired one made it smaller so it fits (or stays cheap).',
    lesson: 'budget-reduction',
    terms: ['compaction-layer', 'projection', 'prefix'],
  },
  'cache.stats': {
    means: 'How much of this request the prompt cache served: read from cache, written to it, or not cached.',
    why: (e) => `Read ${e.read}, written ${e.creation}, uncached ${e.uncached}: a ${Math.round(e.hitRate * 100)}% hit rate.${e.breakDiff ? ` The prefix broke: ${e.breakDiff.detail}.` : ' The request only appended to the previous one.'}`,
    otherwise: 'With an unchanged prefix every turn reads the earlier turns from the cache; a break pays for them again.',
    lesson: 'cache-breakage',
    terms: ['prefix'],
  },
  'model.request': {
    means: 'The exact request sent to the model: model, max tokens, system prompt, tools and messages.',
    why: (e) => `${e.request.messages.length} message(s) to ${e.request.model}, attempt ${e.attempt}${e.attempt > 1 ? ' (a retry of the same call)' : ''}.`,
    otherwise: 'This is the only thing the model ever sees; anything not in it does not exist for the model.',
    lesson: 'lesson-follow-ups',
    terms: ['turn', 'prefix'],
  },
  'model.delta': {
    means: 'A piece of the streamed reply: text, thinking, or part of a tool call’s input JSON.',
    why: (e) => `Block ${e.index} grew by a ${e.delta.kind} chunk. Tool input arrives as partial JSON and is parsed only when the block ends.`,
    otherwise: 'Without streaming you would see nothing until the whole reply was done.',
    lesson: 'parallel-exploration',
    terms: ['turn'],
  },
  'model.response': {
    means: 'The reply is complete, with its stop reason and token usage.',
    why: (e) => `Stop reason \`${e.stopReason ?? 'none'}\`, ${e.usage.input_tokens} in / ${e.usage.output_tokens} out. ${e.stopReason === 'tool_use' ? 'The model asked for tools, so the tool site runs next.' : e.stopReason === 'max_tokens' ? 'It was cut off at the output limit: max-tokens recovery is next.' : 'No tools were asked for.'}`,
    otherwise: 'The stop reason decides the transition: `tool_use` leads to `next_turn`, `end_turn` to the stop site.',
    lesson: 'max-tokens-recovery',
    terms: ['transition'],
  },
  'model.error': {
    means: 'The model call failed.',
    why: (e) => `${e.error.kind}${e.error.status ? ` (HTTP ${e.error.status})` : ''}, attempt ${e.attempt}: ${e.error.message}${e.retryInMs !== undefined ? ` Retrying in ${Math.round(e.retryInMs)} ms.` : e.error.retryable ? '' : ' Not retryable.'}`,
    otherwise: 'Retryable errors are retried within the budget; “prompt too long” triggers one reactive compact; anything else ends the run.',
    lesson: 'flaky-model',
    terms: ['budget', 'continue-site'],
  },
  'replay.diverged': {
    means: 'The model is a replay, and a tool result it is about to be shown is not the one the recording saw. The recorded replies from here on were written for another outcome.',
    why: (e) =>
      `\`${e.name}\` (${e.toolUseId}, from turn ${e.recordedTurn} of the script) ${
        e.what === 'is_error'
          ? e.actual.isError
            ? 'failed here, but succeeded in the recording'
            : 'succeeded here, but failed in the recording'
          : 'returned different text'
      }: a rule, a hook, a mode or a file is not what it was when the replies were recorded. The scripted model cannot notice: it says what the recording said.`,
    otherwise: 'Had the result matched (after ignoring ids, timings and whitespace), the replay would still be faithful: the replies answer what really happened.',
    lesson: 'replay-diverges',
    terms: ['replay', 'tool-use-id'],
  },
  'model.fallback': {
    means: 'The model failed in a way another model may not (overloaded after every retry, or not found), so the run switched to its fallback model and repeats the call.',
    why: (e) => `\`${e.from}\` failed with ${e.error.kind}; the same turn goes to \`${e.to}\` from now on.`,
    otherwise: 'The run would end with `model_error`.',
    lesson: 'flaky-model',
    terms: ['budget', 'turn'],
  },
  'budget.exceeded': {
    means: 'The run has a dollar ceiling, and the next call would cross it: spent so far plus the next request\'s input tokens at the uncached price.',
    why: (e) => `Spent $${e.spentUsd.toFixed(4)} of $${e.maxUsd}; the next call (~${e.nextInputTokens} input tokens on ${e.model}) is at least $${e.nextEstimateUsd.toFixed(4)}.`,
    otherwise: 'The call would be made and the run could spend past its ceiling.',
    lesson: 'budget-stop',
    terms: ['budget', 'exit'],
  },
};
