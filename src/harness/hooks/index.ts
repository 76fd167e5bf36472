/** Hooks: settings schema, matchers, stdin input, running and aggregating. See README.md. */
export {
  HOOK_EVENTS,
  DEFAULT_HOOK_TIMEOUT_S,
  hooksConfigSchema,
  parseHooksConfig,
  formatHooksConfigError,
  isHookEventName,
  HOOK_EVENTS_NOT_FIRED,
  type HookEventName,
  type HooksConfig,
  type HookMatcherGroup,
  type HookDefinition,
  type CommandHook,
  type JsHook,
  type HttpHook,
} from './config.ts';
export { runHttpHook, interpolateHeaders } from './http-hook.ts';
export { AsyncHookInbox, type FinishedAsyncHook } from './async-hooks.ts';
export { compileMatcher, matcherSubject, matches, type CompiledMatcher } from './matcher.ts';
export { buildHookInput, transcriptPathFor, type HookInput, type HookPayload, type HookSession, type SessionEndReason } from './input.ts';
export { hookRunLabel } from './label.ts';
export { interpretHookResult, type HookVerdict, type PermissionDecision } from './interpret.ts';
export { aggregateVerdicts, capContext, MAX_ADDITIONAL_CONTEXT_CHARS, type HookOutcome } from './aggregate.ts';
export { runHooks, describeHook, type HookRunEnv } from './run-hooks.ts';
