/**
 * The hooks folder's light entry point: the parts the first screen needs (event summaries, the
 * run state) that load no heavy package. `index.ts` also brings the matcher (re2js) and the
 * config schema (zod), which the first paint does not need (issue 23 §4).
 */
export { hookRunLabel } from './label.ts';
export { AsyncHookInbox, type FinishedAsyncHook } from './async-hooks.ts';
export { HOOK_EVENTS, HOOK_EVENTS_NOT_FIRED, HOOK_EVENTS_FIRED, CLAUDE_CODE_HOOK_EVENTS, isHookEventName, type HookEventName } from './events.ts';
