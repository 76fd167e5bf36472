/**
 * A background job's lifecycle state. A leaf module (imports nothing) so that the event types in
 * `agents/events.ts` — part of the `TraceEvent` union — do not pull the ports into `trace.ts`.
 */
export type JobStatus = 'running' | 'completed' | 'failed' | 'killed';
