/**
 * The hooks of a run's end, fired just before its `transition` and `run.end`: StopFailure when a
 * turn ends on an API error (instead of Stop, as Claude Code does), and SessionEnd when this run
 * ends the session (`LoopInput.sessionEnd`: a headless `-p` run, `/clear`). Their output cannot
 * change the end (Claude Code ignores both events' decisions); they are reported like any hook.
 */
import type { StopFailureError } from '../hooks/input.ts';
import { textOf, type Message } from '../messages.ts';
import type { ModelError } from '../ports.ts';
import type { ExitReason, TraceEventBody } from '../trace.ts';
import { fireHook, type HookSiteEnv } from './hook-site.ts';
import type { LoopInput } from './types.ts';

/** Claude Code's StopFailure error type for one of our model errors (the hook matcher tests it). */
export function stopFailureError(reason: ExitReason, error?: ModelError): StopFailureError {
  if (!error) return reason === 'model_error' ? 'max_output_tokens' : 'unknown';
  switch (error.kind) {
    case 'rate_limit':
      return 'rate_limit';
    case 'authentication':
      return 'authentication_failed';
    case 'permission':
      return 'billing_error';
    case 'invalid_request':
    case 'prompt_too_long':
    case 'not_found':
      return 'invalid_request';
    case 'overloaded':
    case 'server':
    case 'connection':
    case 'stream_cut':
      return 'server_error';
    default:
      return error.message.includes('output limit') ? 'max_output_tokens' : 'unknown';
  }
}

/** Returns the events to emit before the run's end (the emitter stamps them). */
export async function* endHooks(
  reason: ExitReason,
  messages: Message[],
  error: ModelError | undefined,
  ctx: { hooks: HookSiteEnv; input: Pick<LoopInput, 'sessionEnd'>; isMain: boolean },
): AsyncGenerator<TraceEventBody> {
  if (!ctx.isMain) return;
  if (reason === 'model_error') {
    const last = [...messages].reverse().find((m) => m.role === 'assistant');
    yield* fireHook(
      {
        event: 'StopFailure',
        error: stopFailureError(reason, error),
        errorDetails: error?.message ?? 'the model hit its output limit too many times in a row',
        ...(last ? { lastAssistantMessage: textOf(last) } : {}),
      },
      ctx.hooks,
    );
  }
  if (ctx.input.sessionEnd) yield* fireHook({ event: 'SessionEnd', reason: ctx.input.sessionEnd }, ctx.hooks);
}
