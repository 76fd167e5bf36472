/**
 * The JSON an event row opens. The row numbers the session (follow-up runs keep counting) while an
 * event's own `seq` restarts with each run, so the drawer once showed two numbers for one event.
 * It shows one: `seq` is the row's number; the run's own count stays beside it as `runSeq` only
 * where it differs (the stored and exported event is unchanged).
 */
import type { TraceEvent } from '../../harness/index.ts';
import { prettyJson } from '../lib/format.ts';

/** `index`: the event's 0-based place in the session log. */
export function sessionEventJson(e: TraceEvent, index: number): string {
  const seq = index + 1;
  return prettyJson(e.seq === seq ? e : { ...e, seq, runSeq: e.seq });
}
