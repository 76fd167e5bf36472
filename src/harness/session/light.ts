/**
 * The sessions folder's light entry point: everything of `index.ts` but the JSONL export/import
 * and the stored records' checks (`jsonl.ts`, `validate.ts`: zod), so the first screen can replay,
 * write and list sessions without loading zod; the stores load the checks when they first read.
 */
export type { SandboxSnapshot, SnapshotDelta, SessionMarker, SessionLogEvent } from './types.ts';
export { isSessionMarker, traceEventsOf } from './types.ts';
export { SessionLogWriter, type LogWriterOptions, type FlushResult } from './log-writer.ts';
export { persistRun, defaultSnapshotTrigger, startedEarly, type PersistRunOptions } from './persist-run.ts';
export { persistEvent } from './persist-run.ts';
export { replaySession, GRANTS_NOT_RESTORED, type ReplayedSession, type ReplayedRun } from './replay.ts';
export { repairTranscript, type RepairResult } from './repair.ts';
export { snapshotSandbox, restoreSnapshot, snapshotAt, applyDelta, SnapshotTracker, type SnapshotOptions } from './snapshot.ts';
export { redactText, redactDeep, redactedJson, containsKeyShape, REDACTED_KEY } from './redact.ts';
export { utf8Bytes } from './store-common.ts';
// What code outside the harness imports from this folder (its sub-entry point).
export { deeperThan } from './bound-depth.ts';
export { type EncodedEntry, checkForkPosition, checkTitle, encodeBatch, fail, forkedSessionInfo, newSessionInfo, newestFirst, notFound, notFoundError, ok, quotaMessage, storedTitle, usageOf } from './store-common.ts';
