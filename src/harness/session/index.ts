/**
 * Sessions: the append-only log of a conversation, and everything built on it — batched writing,
 * replay and repair, fork with sandbox snapshots, JSONL export and import.
 * See `README.md` in this folder.
 */
export type { SandboxSnapshot, SnapshotDelta, SessionMarker, SessionLogEvent } from './types.ts';
export { isSessionMarker, traceEventsOf } from './types.ts';
export { SessionLogWriter, type LogWriterOptions, type FlushResult } from './log-writer.ts';
export { persistRun, defaultSnapshotTrigger, startedEarly, type PersistRunOptions } from './persist-run.ts';
export { persistEvent } from './persist-run.ts';
export { replaySession, GRANTS_NOT_RESTORED, type ReplayedSession, type ReplayedRun } from './replay.ts';
export { repairTranscript, type RepairResult } from './repair.ts';
export { snapshotSandbox, restoreSnapshot, snapshotAt, applyDelta, SnapshotTracker, type SnapshotOptions } from './snapshot.ts';
export { exportSessionJsonl, sessionJsonlLines, SessionJsonlEncoder, importSessionJsonl, stableUuid, type ExportOptions, type ImportResult, type ImportOptions } from './jsonl.ts';
export { redactText, redactDeep, redactedJson, containsKeyShape, REDACTED_KEY } from './redact.ts';
export { utf8Bytes } from './store-common.ts';
// What code outside the harness imports from this folder (its sub-entry point).
export { deeperThan } from './bound-depth.ts';
export { type EncodedEntry, checkForkPosition, checkTitle, encodeBatch, fail, forkedSessionInfo, newSessionInfo, newestFirst, notFound, notFoundError, ok, quotaMessage, storedTitle, usageOf } from './store-common.ts';
export { checkLogEntry, checkSessionInfo, issuesText } from './validate.ts';
