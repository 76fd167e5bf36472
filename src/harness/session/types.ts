/**
 * What a session log holds: the loop's `TraceEvent`s, in the order they happened, plus a few
 * records the session layer writes itself (sandbox snapshots, the carry-over state of a finished
 * run). Everything is plain JSON so it can live in IndexedDB, travel in a JSONL export and be
 * replayed.
 *
 * Positions: the log numbers its entries 1, 2, 3 … across every run of the session. This "log
 * seq" is what `fork(…, atSeq)`, `forkedAt` and a scenario's `steps[].atSeq` mean. It differs from
 * `TraceEvent.seq`, which restarts at 1 in every run (and per agent).
 */
import type { ContextState } from '../context/state.ts';
import type { Usage } from '../messages.ts';
import type { ExitReason, TraceEvent } from '../trace.ts';

/** The sandbox files at one moment, relative to the snapshot root. */
export type SandboxSnapshot = {
  /** Relative path → content. */
  files: Record<string, string>;
  /** Relative directory paths (so empty directories come back too), sorted. */
  dirs: string[];
  /** Files left out because they were too large; a restore leaves these alone. */
  skipped: { path: string; size: number }[];
};

/**
 * The change since the previous snapshot of the same session (or everything, when `full`).
 * Folding the deltas of a log in order gives the files at any position.
 */
export type SnapshotDelta = {
  full: boolean;
  /** Files new or changed since the previous snapshot. */
  files: Record<string, string>;
  /** Files gone since the previous snapshot. */
  removed: string[];
  /** The whole directory list, present only when it changed (always when `full`). */
  dirs?: string[];
  skipped: { path: string; size: number }[];
};

/** Records the session layer adds to a log; they never come from the loop. */
export type SessionMarker =
  | {
      /** The sandbox as it was just before the next event of the log (see `persist-run.ts`). */
      type: 'session.snapshot';
      ts: number;
      delta: SnapshotDelta;
    }
  | {
      /**
       * The workbench the events after it ran with: the page's edited scenario (custom tools,
       * golden cases, hooks and rules edited in the page, an imported `.claude/`) and where it came
       * from. Opaque here (the harness knows no scenarios); the page validates it when it restores
       * it (`src/ui/sessions/workbench-record.ts`). Written when it differs from the last one.
       */
      type: 'session.workbench';
      ts: number;
      workbench: Record<string, unknown>;
    }
  | {
      /** A run finished: what the next run of this conversation must carry over. */
      type: 'session.run_result';
      ts: number;
      reason: ExitReason;
      turns: number;
      usage: Usage;
      messageCount: number;
      contextState: ContextState;
    };

export type SessionMarkerType = SessionMarker['type'];

/** One entry of a session log. */
export type SessionLogEvent = TraceEvent | SessionMarker;

export function isSessionMarker(e: SessionLogEvent): e is SessionMarker {
  return e.type === 'session.snapshot' || e.type === 'session.run_result' || e.type === 'session.workbench';
}

/** The loop's events of a log, without the session's own records: what the panels render. */
export function traceEventsOf(log: readonly SessionLogEvent[]): TraceEvent[] {
  return log.filter((e): e is TraceEvent => !isSessionMarker(e));
}
