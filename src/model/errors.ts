/**
 * One mapping from "what the endpoint said" to a {@link ModelError}, shared by every model
 * client. The Anthropic client feeds it what the SDK saw on the wire; the scripted client feeds
 * it the fault a script injects. Because both go through here, a scripted 429 and a real 429
 * produce the same ModelError, so a scenario recorded against one behaves the same on the other.
 */
import type { ModelError } from '../harness/ports.ts';
import { serverWaitNote } from '../harness/loop/light.ts';

/**
 * Who reads the advice in an error: the app's user (fix it in Settings) or someone running the
 * headless runner (fix it in the environment: `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `--model`).
 */
export type ErrorAudience = 'app' | 'headless';

/** Where to fix a setting, worded for the audience. */
export function whereToFix(what: 'key' | 'model' | 'baseUrl', audience: ErrorAudience = 'app'): string {
  if (audience === 'headless') {
    return what === 'key'
      ? 'Check ANTHROPIC_API_KEY in the environment'
      : what === 'model'
        ? 'Check the model id (--model) and ANTHROPIC_BASE_URL'
        : 'Check the network and ANTHROPIC_BASE_URL';
  }
  return what === 'key' ? 'Check the key in Settings' : what === 'model' ? 'Check the model id and base URL in Settings' : 'Check the network and the base URL in Settings';
}

/** What an HTTP error response carried. */
export type HttpFailure = {
  status: number;
  /** Anthropic's `error.type`, e.g. `rate_limit_error`. */
  errorType?: string | null;
  /** Anthropic's `error.message`. */
  message?: string | null;
  /** Server-requested delay, already parsed (see {@link retryAfterMsFromHeaders}). */
  retryAfterMs?: number;
  /** The model id of the request, so a 404 can name it. */
  model?: string;
  /** Who reads the advice; default the app. */
  audience?: ErrorAudience;
};

/** Anthropic's error `type` and a typical message for a status, as the real API sends them. */
export function defaultErrorBody(status: number): { type: string; message: string } {
  switch (status) {
    case 400:
      return { type: 'invalid_request_error', message: 'Invalid request' };
    case 401:
      return { type: 'authentication_error', message: 'invalid x-api-key' };
    case 403:
      return { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' };
    case 404:
      return { type: 'not_found_error', message: 'Not found' };
    case 413:
      return { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' };
    case 429:
      return { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' };
    case 529:
      return { type: 'overloaded_error', message: 'Overloaded' };
    default:
      return status >= 500
        ? { type: 'api_error', message: 'Internal server error' }
        : { type: 'invalid_request_error', message: `Request failed with status ${status}` };
  }
}

function said(f: HttpFailure): string {
  const type = f.errorType ?? defaultErrorBody(f.status).type;
  let msg = f.message?.trim() || defaultErrorBody(f.status).message;
  // A proxy may answer with a whole HTML page; keep the message readable.
  if (msg.length > 300) msg = `${msg.slice(0, 300)}…`;
  return `(HTTP ${f.status} ${type}: ${msg})`;
}

/** The server's `retry-after`, as asked: a fact about the error, not a promise to retry. */
function waitNote(ms: number | undefined): string {
  return ms === undefined ? '' : ` ${serverWaitNote(ms)}`;
}

/**
 * Maps an HTTP error status (and Anthropic's error body) to a ModelError. A retryable error says
 * what happened (and the wait the server asked for) and nothing about what comes next: whether
 * the run waits and retries or stops is the loop's decision (`retry-policy.ts`), and the loop says
 * it — the retry countdown, or a stop that restates the wait. One message, no contradictions.
 */
export function modelErrorFromHttp(f: HttpFailure): ModelError {
  const { status } = f;
  const base = { status, ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}) };
  const text = f.message ?? '';
  if (status === 429) {
    return {
      ...base,
      kind: 'rate_limit',
      retryable: true,
      message: `Rate limited by the API ${said(f)}.${waitNote(f.retryAfterMs)}`,
    };
  }
  if (status === 529) {
    return {
      ...base,
      kind: 'overloaded',
      retryable: true,
      message: `The API is overloaded ${said(f)}.${waitNote(f.retryAfterMs)}`,
    };
  }
  if (status === 408) {
    return { ...base, kind: 'connection', retryable: true, message: `The request timed out ${said(f)}. Retry.` };
  }
  if (status >= 500) {
    return {
      ...base,
      kind: 'server',
      retryable: true,
      message: `The API had a server error ${said(f)}.${waitNote(f.retryAfterMs)}`,
    };
  }
  if (status === 401) {
    return {
      ...base,
      kind: 'authentication',
      retryable: false,
      message: `The API rejected the API key ${said(f)}. ${whereToFix('key', f.audience)}.`,
    };
  }
  if (status === 403 || status === 402) {
    return {
      ...base,
      kind: 'permission',
      retryable: false,
      message: `The API key is not allowed to do this ${said(f)}. Check the key's workspace, permissions and billing.`,
    };
  }
  if (status === 404) {
    const what = f.model ? `The model id "${f.model}" was not found` : 'The endpoint was not found';
    return {
      ...base,
      kind: 'not_found',
      retryable: false,
      message: `${what} ${said(f)}. ${whereToFix('model', f.audience)}.`,
    };
  }
  if (status === 413 || (status === 400 && /prompt is too long/i.test(text))) {
    return {
      ...base,
      kind: 'prompt_too_long',
      retryable: false,
      message: `The request is too large for the model ${said(f)}. Compact the conversation or start a new one.`,
    };
  }
  if (status === 409) {
    return { ...base, kind: 'unknown', retryable: true, message: `The API reported a conflict ${said(f)}. Retry.` };
  }
  return {
    ...base,
    kind: 'invalid_request',
    retryable: false,
    message: `The API refused the request ${said(f)}. This is a problem with the request, not a transient fault.`,
  };
}

/** An `error` event that arrived in the middle of a stream (e.g. `overloaded_error`). */
export function modelErrorFromStreamEvent(errorType: string | null | undefined, message: string | null | undefined): ModelError {
  return {
    kind: 'stream_cut',
    retryable: true,
    message: `The stream was interrupted by an error event (${errorType ?? 'error'}: ${message?.trim() || 'no message'}); the partial reply cannot be used. Retry.`,
  };
}

/** A stream that ended (or broke) before `message_stop`. */
export function streamCutError(detail?: string): ModelError {
  return {
    kind: 'stream_cut',
    retryable: true,
    message: `The reply stream ended before it was complete${detail ? ` (${detail})` : ''}; the partial reply cannot be used. Retry.`,
  };
}

export function abortedError(): ModelError {
  return { kind: 'aborted', retryable: false, message: 'The model call was cancelled.' };
}

export function connectionError(detail: string, opts: { timedOut?: boolean; endpoint?: string; audience?: ErrorAudience } = {}): ModelError {
  const where = opts.endpoint ? ` ${opts.endpoint}` : ' the model endpoint';
  return {
    kind: 'connection',
    retryable: true,
    message: opts.timedOut
      ? `The request to${where} timed out (${detail}). Retry, or check the network.`
      : `Could not reach${where} (${detail}). ${whereToFix('baseUrl', opts.audience)}${opts.audience === 'headless' ? '.' : '; in a browser the endpoint must allow CORS.'}`,
  };
}

/**
 * The server-requested delay: `retry-after-ms` (milliseconds) wins over `retry-after`
 * (seconds, or an HTTP date). Returns undefined when neither is usable.
 */
export function retryAfterMsFromHeaders(
  get: (name: string) => string | null | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = get('retry-after-ms');
  if (ms != null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = get('retry-after');
  if (ra != null && ra.trim() !== '') {
    const seconds = Number(ra);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - now());
  }
  return undefined;
}

/** Thrown (only) by `countTokens`, which the port allows to reject; carries the ModelError. */
export class ModelCallError extends Error {
  constructor(readonly error: ModelError) {
    super(error.message);
    this.name = 'ModelCallError';
  }
}

/**
 * Removes secrets from text that may be shown or logged: the given key verbatim, and anything
 * shaped like an Anthropic key, in case a proxy echoes it back in an error body.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out.replace(/sk-ant-[A-Za-z0-9_-]+/g, 'sk-ant-[redacted]');
}

export function redactError(e: ModelError, secrets: readonly string[]): ModelError {
  return { ...e, message: redactSecrets(e.message, secrets) };
}
