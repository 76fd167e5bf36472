/**
 * Background shell jobs: `bash` with `run_in_background: true` starts one here and returns at
 * once. The sandbox's `exec` is already asynchronous (just-bash awaits between commands; the
 * Worker sandbox runs in another thread), so a job is simply an exec we do not await. Output is
 * kept as it streams, `bash_output` reads what is new, `kill_shell` aborts the job's own signal,
 * and a finished job waits in `takeFinished()` until the loop delivers its notification.
 *
 * One registry per run of the loop: the run's signal stops every job (Stop ends background work
 * too), and the loop kills what is still running when the run ends.
 */
import type { Clock, ExecResult, Sandbox } from '../../ports.ts';

import type { JobStatus } from './job-status.ts';

export type { JobStatus };

export type BackgroundJob = {
  /** `bash_1`, `bash_2`, … in start order (stable across replays of a script). */
  id: string;
  command: string;
  description?: string;
  status: JobStatus;
  exitCode?: number;
  timedOut?: boolean;
  startedAt: number;
  endedAt?: number;
  stdout: string;
  stderr: string;
};

/** Most characters kept per stream of a job; older output is dropped from the front. */
export const JOB_OUTPUT_CAP = 200_000;

type Entry = {
  job: BackgroundJob;
  controller: AbortController;
  done: Promise<void>;
  /** What `bash_output` has already returned, per stream. */
  read: { stdout: number; stderr: number };
  /** Characters dropped from the front of each stream by the cap. */
  dropped: { stdout: number; stderr: number };
  notified: boolean;
};

export class BackgroundJobs {
  private readonly entries = new Map<string, Entry>();
  private next = 1;
  private readonly listeners = new Set<() => void>();
  /** Jobs the run's end stopped, not yet reported by `stopForRunEnd`. */
  private stoppedByRun: BackgroundJob[] = [];

  constructor(
    private readonly sandbox: Sandbox,
    private readonly clock: Clock,
    runSignal: AbortSignal,
  ) {
    runSignal.addEventListener('abort', () => this.stopRunning(), { once: true });
  }

  /**
   * The run is ending: stops what still runs and returns every job the end of the run stopped
   * (including those its abort already stopped), once, for the run's report.
   */
  stopForRunEnd(): BackgroundJob[] {
    this.stopRunning();
    const out = this.stoppedByRun;
    this.stoppedByRun = [];
    return out;
  }

  private stopRunning(): void {
    for (const j of this.running()) {
      this.kill(j.id);
      this.stoppedByRun.push(j);
    }
  }

  /** Starts `command` without waiting for it; the job's result arrives in `takeFinished()`. */
  start(opts: { command: string; cwd: string; timeoutMs: number; description?: string }): BackgroundJob {
    const id = `bash_${this.next++}`;
    const job: BackgroundJob = {
      id,
      command: opts.command,
      ...(opts.description ? { description: opts.description } : {}),
      status: 'running',
      startedAt: this.clock.now(),
      stdout: '',
      stderr: '',
    };
    const controller = new AbortController();
    const entry: Entry = { job, controller, done: Promise.resolve(), read: { stdout: 0, stderr: 0 }, dropped: { stdout: 0, stderr: 0 }, notified: false };
    let streamed = false;
    entry.done = this.sandbox
      .exec(opts.command, {
        cwd: opts.cwd,
        timeoutMs: opts.timeoutMs,
        signal: controller.signal,
        maxOutputChars: JOB_OUTPUT_CAP,
        onOutput: (chunk) => {
          streamed = true;
          this.append(entry, chunk.stream, chunk.text);
        },
      })
      .then((result) => this.finish(entry, result, streamed));
    this.entries.set(id, entry);
    return job;
  }

  get(id: string): BackgroundJob | undefined {
    return this.entries.get(id)?.job;
  }

  list(): BackgroundJob[] {
    return [...this.entries.values()].map((e) => e.job);
  }

  running(): BackgroundJob[] {
    return this.list().filter((j) => j.status === 'running');
  }

  /** Output not yet returned by an earlier read, optionally only the lines matching `filter`. */
  readNew(id: string, filter?: RegExp): { job: BackgroundJob; stdout: string; stderr: string } | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    const take = (s: 'stdout' | 'stderr') => {
      const from = Math.max(0, e.read[s] - e.dropped[s]);
      const text = e.job[s].slice(from);
      e.read[s] = e.dropped[s] + e.job[s].length;
      return filter ? text.split('\n').filter((l) => filter.test(l)).join('\n') : text;
    };
    return { job: e.job, stdout: take('stdout'), stderr: take('stderr') };
  }

  /**
   * Stops a running job. No notification follows: whoever killed it (the model with
   * `kill_shell`, or the end of the run) already knows; its output stays readable.
   */
  kill(id: string): 'killed' | 'not_running' | 'unknown' {
    const e = this.entries.get(id);
    if (!e) return 'unknown';
    if (e.job.status !== 'running') return 'not_running';
    e.notified = true;
    // Killed from now on, whenever the sandbox gets round to ending the command.
    e.job.status = 'killed';
    e.job.endedAt = this.clock.now();
    e.controller.abort();
    return 'killed';
  }

  killAll(): void {
    for (const e of this.entries.values()) if (e.job.status === 'running') this.kill(e.job.id);
  }

  /** Whether a finished job's notification is still to be delivered. */
  hasUndelivered(): boolean {
    return [...this.entries.values()].some((e) => e.job.status !== 'running' && !e.notified);
  }

  /** Finished jobs whose notification has not been delivered, in the order they finished. */
  takeFinished(): BackgroundJob[] {
    const out = [...this.entries.values()].filter((e) => e.job.status !== 'running' && !e.notified).sort((a, b) => a.job.endedAt! - b.job.endedAt!);
    for (const e of out) e.notified = true;
    return out.map((e) => e.job);
  }

  /** Resolves when some running job finishes, or at once when none runs, or when `signal` fires. */
  waitForAny(signal: AbortSignal): Promise<void> {
    if (this.running().length === 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.listeners.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.listeners.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Resolves when every job has finished (after `killAll`, promptly). */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.done));
  }

  private append(e: Entry, stream: 'stdout' | 'stderr', text: string): void {
    let s = e.job[stream] + text;
    if (s.length > JOB_OUTPUT_CAP) {
      e.dropped[stream] += s.length - JOB_OUTPUT_CAP;
      s = s.slice(s.length - JOB_OUTPUT_CAP);
    }
    e.job[stream] = s;
  }

  private finish(e: Entry, r: ExecResult, streamed: boolean): void {
    if (!streamed) {
      this.append(e, 'stdout', r.stdout);
      this.append(e, 'stderr', r.stderr);
    }
    e.job.exitCode = r.exitCode;
    if (r.timedOut) e.job.timedOut = true;
    if (e.job.status === 'running') {
      e.job.endedAt = this.clock.now();
      e.job.status = r.aborted ? 'killed' : r.exitCode === 0 ? 'completed' : 'failed';
    }
    for (const l of [...this.listeners]) l();
  }
}
