/**
 * `SessionLogWriter`: puts a session's events into its store as they happen, in batches.
 *
 * The loop (or the UI stepping it) calls `append(event)` for every event, synchronously. The
 * writer buffers and writes a batch — one `store.append`, one transaction — as soon as the current
 * microtask queue drains, or at once when `batchSize` events are waiting, or when `flush()` is
 * called. So the log trails the screen by at most the events of one tick: a reload loses at most
 * the event in flight.
 *
 * Failures never reach the loop: they are reported through `onError`, and the events stay
 * buffered (in order) so nothing is lost while the page lives. After a failure the writer stops
 * writing on its own (a full disk does not fix itself between two events) and the next explicit
 * `flush()` — e.g. after the person deleted old sessions — tries again.
 */
import type { SessionStore, SessionStoreError } from '../ports.ts';
import type { SessionLogEvent } from './types.ts';
import { redactDeep } from './redact.ts';

export type LogWriterOptions = {
  /** Write at once when this many events are waiting. Default 64. */
  batchSize?: number;
  /** Told about every failed write; the events of the failed batch are kept for the next flush. */
  onError?: (error: SessionStoreError, pending: number) => void;
  /** Told after each batch lands (e.g. to refresh the size in the sessions list). */
  onWritten?: (info: { eventCount: number; bytes: number }) => void;
  /** How to defer a flush; default `queueMicrotask`. */
  schedule?: (fn: () => void) => void;
  /**
   * The secrets in use (the API key), read at each write: when given, every string of every event
   * is redacted before it is stored (and anything key-shaped), so the key never lands in the log
   * even when it appears in the conversation. The page always gives it.
   */
  secrets?: () => readonly string[];
};

export type FlushResult = { ok: true; written: number } | { ok: false; error: SessionStoreError; pending: number };

export class SessionLogWriter {
  private buffer: SessionLogEvent[] = [];
  private inFlight: Promise<FlushResult> | null = null;
  private inFlightCount = 0;
  private scheduled = false;
  private stalled: SessionStoreError | null = null;
  private readonly batchSize: number;

  constructor(
    private readonly store: SessionStore,
    readonly sessionId: string,
    private readonly opts: LogWriterOptions = {},
  ) {
    this.batchSize = Math.max(1, opts.batchSize ?? 64);
  }

  /** The run whose events this log takes now (see `claimRun`); null between runs. */
  private runOwner: object | null = null;

  /**
   * Claims the log for one run (persistRun does, for its whole life). While that run is open a
   * second claim is refused with the reason: two runs' events must never merge into one log
   * (a run started during a reload's restore once did). Sequential runs (follow-ups) each claim
   * in turn.
   */
  claimRun(owner: object): { ok: true } | { ok: false; error: string } {
    if (this.runOwner && this.runOwner !== owner) {
      return {
        ok: false,
        error: `Session ${this.sessionId} is being written by another run that has not ended, so this run's events are refused (two runs must not merge into one session log). Reset and run again.`,
      };
    }
    this.runOwner = owner;
    return { ok: true };
  }

  /** Ends `owner`'s claim (a claim of another run is left alone). */
  releaseRun(owner: object): void {
    if (this.runOwner === owner) this.runOwner = null;
  }

  /** Events not yet confirmed written (buffered, or in the batch being written). */
  get pending(): number {
    return this.buffer.length + this.inFlightCount;
  }

  /** The error that stopped automatic writes, until a flush succeeds. */
  get lastError(): SessionStoreError | null {
    return this.stalled;
  }

  /** Queues one event; never throws, never waits. */
  append(event: SessionLogEvent): void {
    this.buffer.push(event);
    if (this.stalled) return;
    if (this.buffer.length >= this.batchSize && !this.inFlight) {
      void this.flush();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      (this.opts.schedule ?? queueMicrotask)(() => {
        this.scheduled = false;
        if (!this.stalled) void this.flush();
      });
    }
  }

  /**
   * Writes everything buffered, including what arrives while an earlier batch is being written,
   * and resolves when it is all stored (or a write failed). Safe to call any time, concurrently.
   */
  async flush(): Promise<FlushResult> {
    let written = 0;
    // One batch in flight at a time keeps the log in order.
    for (;;) {
      if (this.inFlight) {
        const r = await this.inFlight;
        if (!r.ok) return r;
        continue;
      }
      if (this.buffer.length === 0) return { ok: true, written };
      const batch = this.buffer;
      this.buffer = [];
      this.inFlightCount = batch.length;
      const run = this.write(batch);
      this.inFlight = run;
      const r = await run;
      this.inFlight = null;
      if (!r.ok) return r;
      written += r.written;
    }
  }

  private async write(batch: SessionLogEvent[]): Promise<FlushResult> {
    let r;
    try {
      const secrets = this.opts.secrets?.();
      r = await this.store.append(this.sessionId, secrets ? batch.map((e) => redactDeep(e, secrets)) : batch);
    } catch (err) {
      // The port promises not to reject; a broken implementation still must not reach the loop.
      r = { ok: false as const, error: { code: 'unavailable' as const, message: `Saving the session failed: ${(err as Error)?.message ?? String(err)}` } };
    }
    this.inFlightCount = 0;
    if (!r.ok) {
      // Put the batch back in front, in order, for the next flush.
      this.buffer = [...batch, ...this.buffer];
      this.stalled = r.error;
      const pending = this.buffer.length;
      this.opts.onError?.(r.error, pending);
      return { ok: false, error: r.error, pending };
    }
    this.stalled = null;
    this.opts.onWritten?.({ eventCount: r.value.eventCount, bytes: r.value.bytes });
    return { ok: true, written: batch.length };
  }
}
