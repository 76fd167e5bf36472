/**
 * A thin adapter over `@webcontainer/api`: real Node.js, npm and the `jsh` shell in the page.
 *
 * It can only boot in a cross-origin-isolated page that reaches StackBlitz's servers; with no
 * route there `boot()` neither resolves nor rejects, so it is raced against a timeout and a
 * failure is final for the page load (a second `boot()` would hang too).
 *
 * Differences from just-bash, all inside the contract:
 * - One combined terminal stream: everything lands in `stdout` (`stderr` is empty), with
 *   escape codes stripped; `onOutput` streams it as it arrives.
 * - `stdin` is written to a temporary file in the workdir and redirected into a subshell,
 *   because writing to the pty would echo it into the output.
 * - The fs only reaches the workdir; `stat` has no mtimes for files only commands touched.
 * - Watchers hear the exact paths our fs changed, and the workdir after every exec.
 * - One instance per page: `dispose` empties the workdir and keeps the instance for the next
 *   sandbox instead of paying for another boot.
 */
import type { WebContainer } from '@webcontainer/api';
import { WORKDIR } from '../../harness/ports.ts';
import type { ExecOptions, ExecResult, Sandbox } from '../../harness/ports.ts';
import { resolvePath } from '../../harness/util/index.ts';
import { finishExec, stopNotice } from '../exec-output.ts';
import { WatchHub } from '../watch-hub.ts';
import { WebContainerFs } from './fs-adapter.ts';
import { TerminalTextStream } from './terminal-text.ts';
import { toContainerPath } from './workdir-paths.ts';

export const DEFAULT_BOOT_TIMEOUT_MS = 20_000;
const DEFAULT_EXEC_TIMEOUT_MS = 600_000;
/** After `kill()`, how long to wait for the exit code before reporting without it. */
const KILL_GRACE_MS = 2_000;

export type WebContainerUnavailableReason = 'not-isolated' | 'timeout' | 'failed';

/** Why WebContainer cannot be used in this page; `message` is a sentence for the UI. */
export class WebContainerUnavailableError extends Error {
  constructor(
    readonly reason: WebContainerUnavailableReason,
    message: string,
  ) {
    super(message);
    this.name = 'WebContainerUnavailableError';
  }
}

export type WebContainerSandboxOptions = {
  files?: Record<string, string>;
  bootTimeoutMs?: number;
};

type BootState =
  | { status: 'idle' }
  | { status: 'booting'; promise: Promise<WebContainer> }
  | { status: 'ready'; instance: WebContainer }
  | { status: 'failed'; error: WebContainerUnavailableError };

let boot: BootState = { status: 'idle' };
let inUse = false;

/** Whether this page could ever boot WebContainer (cross-origin isolation). */
export function isCrossOriginIsolated(): boolean {
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

/** Boots once per page; a timeout or failure is remembered and returned again at once. */
export async function bootWebContainer(timeoutMs = DEFAULT_BOOT_TIMEOUT_MS): Promise<WebContainer> {
  if (boot.status === 'ready') return boot.instance;
  if (boot.status === 'failed') throw boot.error;
  if (boot.status === 'booting') return boot.promise;
  if (!isCrossOriginIsolated()) {
    // Not remembered: isolation is fixed for the page, so the answer cannot change anyway.
    throw new WebContainerUnavailableError('not-isolated', 'WebContainer needs cross-origin isolation, which this page does not have');
  }
  const promise = (async () => {
    const { WebContainer } = await import('@webcontainer/api');
    return withBootTimeout(WebContainer.boot({ workdirName: 'project', coep: 'require-corp' }), timeoutMs);
  })();
  boot = { status: 'booting', promise };
  try {
    const instance = await promise;
    boot = { status: 'ready', instance };
    return instance;
  } catch (err) {
    const error =
      err instanceof WebContainerUnavailableError
        ? err
        : new WebContainerUnavailableError('failed', `WebContainer failed to boot (${err instanceof Error ? err.message : String(err)})`);
    boot = { status: 'failed', error };
    throw error;
  }
}

/** `booting`, or a {@link WebContainerUnavailableError} of reason `timeout` after `timeoutMs`. */
export async function withBootTimeout<T>(booting: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const shown = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
    timer = setTimeout(
      () => reject(new WebContainerUnavailableError('timeout', `WebContainer did not boot within ${shown} (its servers are unreachable)`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([booting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function createWebContainerSandbox(opts: WebContainerSandboxOptions = {}): Promise<Sandbox> {
  const wc = await bootWebContainer(opts.bootTimeoutMs);
  if (inUse) throw new WebContainerUnavailableError('failed', 'WebContainer is already in use by another sandbox in this page; dispose it first');
  if (wc.workdir !== WORKDIR) {
    throw new WebContainerUnavailableError('failed', `WebContainer booted with workdir ${wc.workdir}, not ${WORKDIR}`);
  }
  inUse = true;
  const hub = new WatchHub();
  const fs = new WebContainerFs(wc.fs, hub);
  await clearWorkdir(wc);
  for (const [path, content] of Object.entries(opts.files ?? {})) {
    // The fs API cannot reach outside the workdir; such seed files are skipped.
    if (toContainerPath(path) !== null) await fs.writeFile(path, content);
  }
  hub.clear();
  const running = new Set<{ kill(): void }>();
  let disposed = false;
  let stdinSeq = 0;

  async function exec(command: string, o: ExecOptions = {}): Promise<ExecResult> {
    if (disposed) return finishExec({ stdout: '', stderr: 'The sandbox was disposed; start a new one.\n', exitCode: 126 }, o, true);
    if (o.signal?.aborted) return finishExec({ stdout: '', stderr: stopNotice('abort'), exitCode: 130, aborted: true }, o, true);
    const cwd = toContainerPath(resolvePath(WORKDIR, o.cwd ?? WORKDIR)) ?? '.';
    let script = command;
    let stdinFile: string | undefined;
    if (o.stdin !== undefined) {
      stdinFile = `.sandbox-stdin-${++stdinSeq}`;
      await wc.fs.writeFile(stdinFile, o.stdin);
      script = `(\n${command}\n) < '${WORKDIR}/${stdinFile}'`;
    }
    const text = new TerminalTextStream();
    let output = '';
    const emit = (chunk: string) => {
      if (!chunk) return;
      output += chunk;
      try {
        o.onOutput?.({ stream: 'stdout', text: chunk });
      } catch {
        // The UI callback failing is not the command failing.
      }
    };
    let stoppedBy: 'timeout' | 'abort' | null = null;
    let exitCode: number;
    try {
      const proc = await wc.spawn('jsh', ['-c', script], {
        cwd,
        env: { HOME: WORKDIR, ...o.env },
        terminal: { cols: 200, rows: 50 },
      });
      running.add(proc);
      let killed!: () => void;
      const afterKill = new Promise<void>((resolve) => (killed = resolve));
      const stop = (why: 'timeout' | 'abort') => {
        stoppedBy ??= why;
        proc.kill();
        killed();
      };
      const timeoutMs = Math.min(o.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_EXEC_TIMEOUT_MS);
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      const onAbort = () => stop('abort');
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const pump = proc.output.pipeTo(new WritableStream({ write: (chunk) => emit(text.push(chunk)) })).catch(() => {});
      try {
        // Once killed, do not wait forever for an exit code that may never come.
        exitCode = await Promise.race([proc.exit, afterKill.then(() => delay(KILL_GRACE_MS)).then(() => -1)]);
        // The output stream can lag the exit a little; it may also never close after a kill.
        await Promise.race([pump, delay(stoppedBy ? 0 : 500)]);
      } finally {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        running.delete(proc);
      }
      emit(text.end());
    } catch (err) {
      return finishExec({ stdout: output, stderr: `jsh failed to start: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 126 }, o, false);
    } finally {
      if (stdinFile) await wc.fs.rm(stdinFile, { force: true }).catch(() => {});
      hub.record(WORKDIR);
      hub.flush();
    }
    if (stoppedBy) {
      return finishExec(
        {
          stdout: output,
          stderr: stopNotice(stoppedBy, o.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS),
          exitCode: stoppedBy === 'timeout' ? 124 : 130,
          timedOut: stoppedBy === 'timeout',
          aborted: stoppedBy === 'abort',
        },
        o,
        false,
      );
    }
    return finishExec({ stdout: output, stderr: '', exitCode }, o, false);
  }

  return {
    kind: 'webcontainer',
    capabilities: { preemptiveAbort: true },
    workdir: WORKDIR,
    exec,
    fs,
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      for (const proc of running) proc.kill();
      hub.clear();
      await clearWorkdir(wc).catch(() => {});
      inUse = false;
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function clearWorkdir(wc: WebContainer): Promise<void> {
  for (const name of await wc.fs.readdir('.')) await wc.fs.rm(name, { recursive: true, force: true });
}
