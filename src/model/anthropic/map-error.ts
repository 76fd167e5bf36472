/**
 * What the SDK throws → {@link ModelError}, through the shared mapping in `../errors.ts`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error';
import type { ModelError } from '../../harness/ports.ts';
import { abortedError, connectionError, modelErrorFromHttp, redactError, retryAfterMsFromHeaders, streamCutError, type ErrorAudience } from '../errors.ts';

export type SdkErrorContext = {
  signal: AbortSignal;
  /** `request`: before the response headers; `stream`: while reading the body. */
  phase: 'request' | 'stream';
  model?: string;
  endpoint?: string;
  /** Secrets to scrub from any message (the API key). */
  secrets: readonly string[];
  /** Who reads the advice (Settings in the app, environment variables headless). */
  audience?: ErrorAudience;
};

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : '';
  return causeText && !e.message.includes(causeText) ? `${e.message}: ${causeText}` : e.message;
}

export function modelErrorFromSdk(e: unknown, ctx: SdkErrorContext): ModelError {
  return redactError(map(e, ctx), ctx.secrets);
}

function map(e: unknown, ctx: SdkErrorContext): ModelError {
  // Whatever the SDK threw, a fired signal means the caller cancelled.
  if (ctx.signal.aborted || e instanceof APIUserAbortError) return abortedError();
  if (e instanceof APIConnectionTimeoutError) {
    return connectionError(describe(e), { timedOut: true, ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}), ...(ctx.audience ? { audience: ctx.audience } : {}) });
  }
  if (e instanceof APIConnectionError) {
    return connectionError(describe(e), { ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}), ...(ctx.audience ? { audience: ctx.audience } : {}) });
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    const retryAfterMs = e.headers ? retryAfterMsFromHeaders((n) => e.headers?.get(n)) : undefined;
    return modelErrorFromHttp({
      status: e.status,
      errorType: e.type,
      message: e.apiMessage ?? e.message,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(ctx.model ? { model: ctx.model } : {}),
      ...(ctx.audience ? { audience: ctx.audience } : {}),
    });
  }
  // The body broke off (reset, "terminated", bad chunk): a partial reply is never a whole one.
  if (ctx.phase === 'stream') return streamCutError(describe(e));
  return { kind: 'unknown', retryable: false, message: `The model call failed: ${describe(e)}` };
}
