/**
 * The hooks folder's light entry point: the parts the first screen needs (event summaries, the
 * run state) that load no heavy package. `index.ts` also brings the matcher (re2js) and the
 * config schema (zod), which the first paint does not need (issue 23 §4).
 */
export { hookRunLabel } from './label.ts';
export { AsyncHookInbox, type FinishedAsyncHook } from './async-hooks.ts';
