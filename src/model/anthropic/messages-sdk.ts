/**
 * The SDK's client with only the Messages API attached. `Anthropic` (the package's default export)
 * builds every resource — Files, Models, Skills, Organization, the whole beta surface — and so
 * brings ~450 kB of the SDK (tracing, webhooks, tool helpers) into the runner's start-up and the
 * page's live-run chunk; we call `messages.create` (streaming) and `messages.countTokens` only.
 * `BaseAnthropic` is the same client (authentication, headers, timeouts, fetch, errors) without
 * resources, and `Messages` is the resource `Anthropic` itself attaches: requests are built and
 * sent by the same code, ~130 kB instead of ~450 kB (issue 23 §3, measured in `cli-startup.ts`).
 *
 * What `Anthropic` adds and we leave out: the other resources, its static re-exports, and the
 * `_supportsMessageThreads` flag, which only the beta Messages API's threading reads.
 */
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';

export class MessagesSdk extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
}
