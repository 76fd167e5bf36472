/**
 * The page side of just-bash in a worker: a {@link Sandbox} whose commands and files live in
 * another thread (`host.ts`), reached by messages. Because the interpreter is not on the page's
 * thread, a busy loop neither freezes the UI nor keeps Stop from being clicked, and an abort
 * really stops it:
 *
 * - With shared memory (a cross-origin-isolated page, or Node) each exec gets a 4-byte flag; an
 *   abort sets it with `Atomics.store` and just-bash sees it before its next command. Files and
 *   the worker stay as they are.
 * - Without it, or when a command does not stop within a grace period (one long command that
 *   never reaches a command boundary), the worker is terminated and rebuilt from the page's
 *   {@link FileMirror}; the command's stderr says so.
 *
 * The worker itself is made by `spawn` (a browser Worker in `index.ts`, a node:worker_threads
 * one in the unit tests), so this file has no browser- or Node-only code.
 */
import { SandboxFsError, WORKDIR } from '../../harness/ports.ts';
import type { DirEntry, ExecOptions, ExecResult, FileStat, Sandbox, SandboxFs } from '../../harness/ports.ts';
import { finishExec, stopNotice } from '../exec-output.ts';
import { shellGit } from '../git-port.ts';
import { WatchHub } from '../watch-hub.ts';
import { FileMirror } from './file-mirror.ts';
import { errorFromWire } from './protocol.ts';
import type { FromWorker, FsOp, ToWorker, WireExecOptions } from './protocol.ts';

/** The little of a Worker the client needs; adapters exist for the browser and for Node. */
export type WorkerLike = {
  post(msg: ToWorker): void;
  onMessage(handler: (msg: FromWorker) => void): void;
  /** A load failure or a crash of the worker, in words. */
  onError(handler: (message: string) => void): void;
  terminate(): void;
  /**
   * Hands the worker back for the next sandbox instead of terminating it (`spare-worker.ts`). Only
   * called on a worker that is up, idle and never ran a command, right after `reset` was posted to
   * it; absent where workers are not reused.
   */
  recycle?(): void;
};

export type WorkerSandboxOptions = {
  /** Initial files: path (absolute, or relative to the workdir) → content. */
  files?: Record<string, string>;
  /** Extra environment for every command. */
  env?: Record<string, string>;
  /**
   * The modification time the initial files and directories start with (`../boot-view.ts`); the
   * first worker only: one rebuilt after a restart starts from the mirror, whose times it never had.
   */
  mtimeMs?: number;
  spawn: () => WorkerLike;
  /** Abort through a shared flag. Default: when `SharedArrayBuffer` is usable (isolated page, Node). */
  sharedAbort?: boolean;
  /** How long a worker may take to load and build its sandbox; default 30 s. */
  startTimeoutMs?: number;
  /** After an abort, how long the command may take to stop by itself before the worker is replaced. */
  abortGraceMs?: number;
  /** After its timeout, the same; default 2 s. */
  timeoutGraceMs?: number;
};

/** The sandbox plus what it measured, for the self-check and the report. */
export type WorkerSandbox = Sandbox & {
  /** Milliseconds from spawning the first worker to its sandbox being ready. */
  readonly startupMs: number;
  /** How many times the worker was terminated and rebuilt. */
  readonly restarts: () => number;
};

type RunningExec = {
  output(chunk: { stream: 'stdout' | 'stderr'; text: string }): void;
  finish(result: ExecResult): void;
  /** The worker is gone: `culprit` when this command is why. */
  lost(why: 'abort' | 'timeout' | 'other', detail: string): void;
};

type PendingCall = { msg: ToWorker; path: string; resolve(value: unknown): void; reject(err: Error): void };

/** One worker: `up` once it said ready, `ranCommand` once an exec was posted to it. */
type Generation = { worker: WorkerLike; ready: Promise<void>; alive: boolean; up: boolean; ranCommand: boolean };

/** The in-thread sandbox's cap on one command (`MAX_EXEC_MS` there; not imported, so the page does not load just-bash). */
const MAX_EXEC_MS = 600_000;

const RESTART_NOTE =
  'The command did not stop by itself, so the sandbox worker was restarted with the files as they were after the last finished command; changes this command made are lost.\n';

export function canShareMemory(): boolean {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return typeof SharedArrayBuffer === 'function' && isolated !== false;
}

export async function createWorkerSandbox(opts: WorkerSandboxOptions): Promise<WorkerSandbox> {
  const mirror = new FileMirror(opts.files);
  const hub = new WatchHub();
  const shared = opts.sharedAbort ?? canShareMemory();
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  const abortGraceMs = opts.abortGraceMs ?? (shared ? 1000 : 250);
  const timeoutGraceMs = opts.timeoutGraceMs ?? 2000;
  const execs = new Map<number, RunningExec>();
  const calls = new Map<number, PendingCall>();
  let nextId = 0;
  let restarts = 0;
  let disposed = false;
  /** Set when a replacement worker could not start: the sandbox cannot be used any more. */
  let broken: string | null = null;

  function failPending(why: string): void {
    for (const ex of [...execs.values()]) ex.lost('other', `${why}\n`);
    for (const [id, call] of [...calls]) {
      calls.delete(id);
      call.reject(new SandboxFsError('EIO', call.path, why));
    }
  }

  function start(): Generation {
    const started = Date.now();
    const worker = opts.spawn();
    let resolveReady!: () => void;
    let rejectReady!: (err: Error) => void;
    const gen: Generation = {
      worker,
      alive: true,
      up: false,
      ranCommand: false,
      ready: new Promise<void>((res, rej) => {
        resolveReady = res;
        rejectReady = rej;
      }),
    };
    let isReady = false;
    const failStart = (why: string) => {
      clearTimeout(timer);
      gen.alive = false;
      worker.terminate();
      rejectReady(new Error(why));
    };
    const timer = setTimeout(() => failStart(`it did not start within ${startTimeoutMs} ms`), startTimeoutMs);
    worker.onMessage((msg) => {
      if (!gen.alive) return;
      switch (msg.t) {
        case 'ready':
          clearTimeout(timer);
          isReady = true;
          gen.up = true;
          startupMs ??= Date.now() - started;
          resolveReady();
          return;
        case 'init-failed':
          failStart(`its sandbox could not be built: ${msg.message}`);
          return;
        case 'changed':
          mirror.apply(msg.mirror);
          for (const p of msg.paths) hub.record(p);
          hub.flush();
          return;
        case 'output':
          execs.get(msg.id)?.output(msg.chunk);
          return;
        case 'exec-done':
          execs.get(msg.id)?.finish(msg.result);
          return;
        case 'fs-done': {
          const call = calls.get(msg.id);
          if (!call) return;
          calls.delete(msg.id);
          if (msg.ok) call.resolve(msg.value);
          else call.reject(errorFromWire(msg.error));
          return;
        }
      }
    });
    worker.onError((why) => {
      if (!gen.alive) return;
      if (!isReady) failStart(`it failed to load: ${why}`);
      else restart('crash', undefined, why);
    });
    const stamp = restarts === 0 && opts.mtimeMs !== undefined ? { mtimeMs: opts.mtimeMs } : {};
    worker.post({ t: 'init', ...mirror.toInit(), ...(opts.env ? { env: opts.env } : {}), ...stamp });
    return gen;
  }

  /** Terminates the worker, settles what ran in it, and starts a new one from the mirror. */
  function restart(cause: 'abort' | 'timeout' | 'crash', culprit: number | undefined, detail = ''): void {
    if (disposed) return;
    current.alive = false;
    current.worker.terminate();
    restarts++;
    const other =
      cause === 'crash'
        ? `The sandbox worker crashed${detail ? ` (${detail})` : ''} and was restarted with the files as they were after the last finished command; run the command again.\n`
        : 'This command was cut short: the sandbox worker was restarted because another command did not stop. Files are as they were after the last finished command; run it again.\n';
    for (const [id, ex] of [...execs]) {
      if (id === culprit && cause !== 'crash') ex.lost(cause, RESTART_NOTE);
      else ex.lost('other', other);
    }
    current = start();
    // File calls that were waiting behind the stopped command go to the new worker.
    for (const call of calls.values()) current.worker.post(call.msg);
    current.ready.catch((err: unknown) => {
      broken = `The sandbox worker could not be restarted (${err instanceof Error ? err.message : String(err)}); reset the conversation to get a new sandbox.`;
      failPending(broken);
    });
  }

  let startupMs: number | undefined;
  let current = start();
  try {
    await current.ready;
  } catch (err) {
    throw new Error(`just-bash's worker did not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }

  function exec(command: string, o: ExecOptions = {}): Promise<ExecResult> {
    if (disposed) return Promise.resolve(finishExec({ stdout: '', stderr: 'The sandbox was disposed; start a new one.\n', exitCode: 126 }, o, true));
    if (broken) return Promise.resolve(finishExec({ stdout: '', stderr: `${broken}\n`, exitCode: 126 }, o, true));
    if (o.signal?.aborted) return Promise.resolve(finishExec({ stdout: '', stderr: stopNotice('abort'), exitCode: 130, aborted: true }, o, true));
    const id = ++nextId;
    const timeoutMs = Math.min(o.timeoutMs ?? MAX_EXEC_MS, MAX_EXEC_MS);
    const flag = shared ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
    return new Promise<ExecResult>((resolve) => {
      let grace: ReturnType<typeof setTimeout> | undefined;
      const done = (result: ExecResult) => {
        if (!execs.delete(id)) return;
        clearTimeout(grace);
        clearTimeout(watchdog);
        o.signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const onAbort = () => {
        if (flag) Atomics.store(flag, 0, 1);
        current.worker.post({ t: 'abort', id });
        grace = setTimeout(() => restart('abort', id), abortGraceMs);
      };
      // The worker enforces the timeout itself; this only catches a command that ignores it.
      const watchdog = setTimeout(() => restart('timeout', id), timeoutMs + timeoutGraceMs);
      execs.set(id, {
        output(chunk) {
          try {
            o.onOutput?.(chunk);
          } catch {
            // The UI callback failing is not the command failing.
          }
        },
        finish: done,
        lost(why, note) {
          const raw =
            why === 'other'
              ? { stdout: '', stderr: note, exitCode: 126 }
              : // The stop notice goes last: callers that show their own (the Bash tool) strip a final one.
                { stdout: '', stderr: note + stopNotice(why, timeoutMs), exitCode: why === 'timeout' ? 124 : 130, timedOut: why === 'timeout', aborted: why === 'abort' };
          done(finishExec(raw, o, true));
        },
      });
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const wire: WireExecOptions = {
        stream: o.onOutput !== undefined,
        ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
        ...(o.env !== undefined ? { env: o.env } : {}),
        ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
        ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
        ...(o.maxOutputChars !== undefined ? { maxOutputChars: o.maxOutputChars } : {}),
      };
      current.ranCommand = true;
      current.worker.post({ t: 'exec', id, command, opts: wire, ...(flag ? { abortFlag: flag.buffer as SharedArrayBuffer } : {}) });
    });
  }

  function call<T>(op: FsOp, args: unknown[], path: string): Promise<T> {
    if (disposed) return Promise.reject(new SandboxFsError('EIO', path, 'The sandbox was disposed; start a new one.'));
    if (broken) return Promise.reject(new SandboxFsError('EIO', path, broken));
    const id = ++nextId;
    const msg: ToWorker = { t: 'fs', id, op, args };
    return new Promise<T>((resolve, reject) => {
      calls.set(id, { msg, path, resolve: resolve as (v: unknown) => void, reject });
      current.worker.post(msg);
    });
  }

  const fs: SandboxFs = {
    readFile: (path) => call<string>('readFile', [path], path),
    writeFile: (path, content) => call<void>('writeFile', [path, content], path),
    list: (dir) => call<DirEntry[]>('list', [dir], dir),
    stat: (path) => call<FileStat | null>('stat', [path], path),
    mkdir: (path, o) => call<void>('mkdir', [path, o], path),
    rm: (path, o) => call<void>('rm', [path, o], path),
    rename: (from, to) => call<void>('rename', [from, to], from),
    realpath: (path) => call<string>('realpath', [path], path),
    watch: (listener) => hub.subscribe(listener),
  };

  return {
    kind: 'just-bash',
    workdir: WORKDIR,
    capabilities: { preemptiveAbort: true },
    startupMs: startupMs ?? 0,
    restarts: () => restarts,
    exec,
    fs,
    // The worker's `git` command drives the harness's git-backed workspaces (`../git-port.ts`).
    git: shellGit(exec),
    dispose() {
      if (disposed) return Promise.resolve();
      disposed = true;
      current.alive = false;
      // A worker that only ever held files goes back for the next sandbox (its just-bash is already
      // compiled); one that ran a command, or has anything in flight, is terminated.
      const idle = current.up && !current.ranCommand && restarts === 0 && calls.size === 0 && execs.size === 0;
      if (idle && current.worker.recycle) {
        current.worker.post({ t: 'reset' });
        current.worker.recycle();
      } else current.worker.terminate();
      failPending('The sandbox was disposed; start a new one.');
      hub.clear();
      return Promise.resolve();
    },
  };
}
