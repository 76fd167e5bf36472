/**
 * The Anthropic Messages API as a {@link ModelClient}, on the official SDK, straight from the
 * browser (or Node, for headless runs). Streams with `stream: true`; never retries on its own
 * (`maxRetries: 0`) so every retry is a visible loop event; never throws from `stream`.
 */
import { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { MessageCountTokensParams, MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '../../harness/messages.ts';
import type { ModelClient, ModelError, ModelStreamEvent } from '../../harness/ports.ts';
import { abortedError, ModelCallError, redactError, streamCutError, type ErrorAudience } from '../errors.ts';
import { modelErrorFromSdk } from './map-error.ts';
import { MessagesSdk } from './messages-sdk.ts';
import { SseEventMapper } from './map-events.ts';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

export type AnthropicClientOptions = {
  apiKey: string;
  /** Any Messages-compatible endpoint; default {@link DEFAULT_BASE_URL}. */
  baseURL?: string;
  /** A custom fetch (tests, proxies). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Per-request time limit for the response to start; default the SDK's 10 minutes. */
  timeoutMs?: number;
  /** Always true: this app calls the API from the page, with the user's own key. */
  dangerouslyAllowBrowser?: true;
  /** Label for the UI and traces; default `anthropic`. */
  name?: string;
  /** Who reads error advice: the app (Settings, default) or a headless run (environment variables). */
  audience?: ErrorAudience;
};

export type AnthropicModelClient = ModelClient & { readonly baseURL: string };

function toParams(req: ModelRequest): Omit<MessageCreateParamsStreaming, 'stream'> {
  const params = {
    model: req.model,
    max_tokens: req.max_tokens,
    messages: req.messages,
    ...(req.system !== undefined ? { system: req.system } : {}),
    ...(req.tools !== undefined ? { tools: req.tools } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
  // Our message types are the API's shapes; the SDK's types are wider unions of the same.
  return params as unknown as Omit<MessageCreateParamsStreaming, 'stream'>;
}

function missingKeyError(audience: ErrorAudience = 'app'): ModelError {
  return {
    kind: 'authentication',
    retryable: false,
    message:
      audience === 'headless'
        ? 'No API key is set. Set ANTHROPIC_API_KEY in the environment (and ANTHROPIC_BASE_URL for another endpoint).'
        : 'No API key is set. Add your Anthropic API key in Settings (it stays in this browser).',
  };
}

export function createAnthropicClient(opts: AnthropicClientOptions): AnthropicModelClient {
  const apiKey = opts.apiKey.trim();
  const baseURL = (opts.baseURL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const secrets = [apiKey];
  const sdk = new MessagesSdk({
    apiKey: apiKey || 'missing-key',
    // Always explicit, so the SDK never falls back to environment variables or profiles.
    baseURL,
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}),
  });

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    if (!apiKey) {
      yield { type: 'error', error: missingKeyError(opts.audience) };
      return;
    }
    if (signal.aborted) {
      yield { type: 'error', error: abortedError() };
      return;
    }
    const ctx = { signal, model: request.model, endpoint: baseURL, secrets, ...(opts.audience ? { audience: opts.audience } : {}) };
    // A per-call controller: the caller's signal may live for a whole run, and we must also be
    // able to drop the connection when the consumer stops reading early.
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      let response: Response;
      try {
        response = await sdk.messages.create({ ...toParams(request), stream: true }, { signal: ctl.signal }).asResponse();
      } catch (e) {
        yield { type: 'error', error: modelErrorFromSdk(e, { ...ctx, phase: 'request' }) };
        return;
      }
      const mapper = new SseEventMapper();
      try {
        for await (const frame of Stream.rawEvents(response, ctl)) {
          if (signal.aborted) break;
          const mapped = mapper.map(frame);
          if (!mapped) continue;
          if ('error' in mapped) {
            yield { type: 'error', error: redactError(mapped.error, secrets) };
            return;
          }
          yield mapped.event;
          // The reply is whole; don't wait on a server that keeps the connection open after it.
          if (mapped.event.type === 'message_stop') return;
        }
        finished = true;
      } catch (e) {
        yield { type: 'error', error: modelErrorFromSdk(e, { ...ctx, phase: 'stream' }) };
        return;
      }
      if (signal.aborted) yield { type: 'error', error: abortedError() };
      else yield { type: 'error', error: streamCutError('the connection closed before message_stop') };
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!finished) ctl.abort();
    }
  }

  async function countTokens(request: ModelRequest, signal?: AbortSignal): Promise<number> {
    if (!apiKey) throw new ModelCallError(missingKeyError(opts.audience));
    const params = {
      model: request.model,
      messages: request.messages,
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(request.tools !== undefined ? { tools: request.tools } : {}),
    } as unknown as MessageCountTokensParams;
    const sig = signal ?? new AbortController().signal;
    try {
      const res = await sdk.messages.countTokens(params, { signal: sig });
      return res.input_tokens;
    } catch (e) {
      throw new ModelCallError(modelErrorFromSdk(e, { signal: sig, phase: 'request', model: request.model, endpoint: baseURL, secrets, ...(opts.audience ? { audience: opts.audience } : {}) }));
    }
  }

  return { name: opts.name ?? 'anthropic', baseURL, stream, countTokens };
}

/**
 * For headless (Node) runs: a client from `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL`, as the
 * SDK itself reads them; `null` when no key is set, so the caller can say so or fall back.
 */
export function anthropicClientFromEnv(
  env: Record<string, string | undefined>,
  extra: Omit<AnthropicClientOptions, 'apiKey' | 'baseURL'> = {},
): AnthropicModelClient | null {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return null;
  const baseURL = env.ANTHROPIC_BASE_URL?.trim();
  return createAnthropicClient({ audience: 'headless', ...extra, apiKey, ...(baseURL ? { baseURL } : {}) });
}
