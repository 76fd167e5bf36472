/**
 * Whether a session log could be opened at all: the pure part of `SessionManager.open` (the
 * replay, the panels' events, the latest snapshot, the carried-over result and memory) tried on the
 * log before it is stored. An imported file that passes the record checks but would then fail to
 * open (a raw TypeError on a record replay cannot read) is refused at import with the reason,
 * instead of leaving a session nobody can open.
 */
import { emptyContextState } from '../../harness/context/index.ts';
import { replaySession, snapshotAt, traceEventsOf, type SessionLogEvent } from '../../harness/session/light.ts';
import { memoryTextOf, resultOfReplay } from './log-position.ts';
import { latestWorkbench } from './workbench-read.ts';

/** Null when the log opens; else what fails, in words. */
export function openProblem(log: readonly SessionLogEvent[]): string | null {
  try {
    latestWorkbench(log);
    const replay = replaySession(log);
    resultOfReplay(replay, emptyContextState);
    snapshotAt(log);
    traceEventsOf(log);
    memoryTextOf(log);
    return null;
  } catch (err) {
    return `replaying its records fails (${err instanceof Error ? err.message : String(err)})`;
  }
}
