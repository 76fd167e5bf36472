/**
 * The default sandbox: just-bash, a bash interpreter written in TypeScript over an in-memory
 * file system. Offline, deterministic, the same in Node and the browser.
 *
 * Behaviour worth knowing:
 * - Runs in the caller's thread. Timeouts stop even a busy loop (see `stop-signal.ts`); an
 *   abort is seen at the next command boundary once the event loop runs, which a pure busy
 *   loop in the same thread does not allow — such a loop ends by its timeout or by just-bash's
 *   command-count limit (exit 126, about 100,000 commands).
 * - just-bash returns output only when the command ends, so `onOutput` gets one chunk per
 *   stream at the end.
 */
import './browser-globals.ts';
import { Bash, InMemoryFs } from 'just-bash';
import type { BashExecResult, IFileSystem } from 'just-bash';
import { HOME_DIR, WORKDIR } from '../../harness/ports.ts';
import type { ExecOptions, ExecResult, Sandbox } from '../../harness/ports.ts';
import { resolvePath } from '../../harness/util/index.ts';
import { finishExec, stopNotice } from '../exec-output.ts';
import { shellGit } from '../git-port.ts';
import { runtimeCommands } from '../runtimes/index.ts';
import { WatchHub } from '../watch-hub.ts';
import { JustBashFs } from './fs-adapter.ts';
import { liveOutput } from './live-output.ts';
import type { LiveOutput } from './live-output.ts';
import { createSeqCommand } from './seq-command.ts';
import { createStopSignal } from './stop-signal.ts';
import type { StopSignal } from './stop-signal.ts';
import { trackMutations } from './tracked-fs.ts';

export type JustBashSandboxOptions = {
  /** Initial files: path (absolute, or relative to the workdir) → content. */
  files?: Record<string, string>;
  /** Extra environment for every command. */
  env?: Record<string, string>;
  /**
   * Raise just-bash's loop and command-count limits (100,000 each by default). In the caller's
   * thread they are what ends a busy loop an abort cannot reach; in a Worker, where an abort
   * can, the timeout is the limit instead, as in a real shell.
   */
  limits?: { maxCommandCount?: number; maxLoopIterations?: number };
  /** Directories to create besides (absolute, or relative to the workdir). */
  dirs?: readonly string[];
  /**
   * The modification time every start file and directory under the project and home directories
   * (those two included) reads, instead of the moment each was made: the page then knows what a
   * `stat` will say before the sandbox is up (`../boot-view.ts`).
   */
  mtimeMs?: number;
};

/** Upper bound for one command when the caller gives no timeout (matches the Bash tool's max). */
export const MAX_EXEC_MS = 600_000;
/** just-bash discards *all* output past its limit, so keep it far above what we show and cut ourselves. */
const BACKEND_MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** The message just-bash puts on stderr when its signal stops a command; we replace it with ours. */
const BACKEND_STOP_LINE = /bash: [^\n]*(aborted|exceeded (its )?execution deadline[^\n]*)\n?$/;

/** Sets the modification time of `roots` and everything under them. */
async function stampTree(fs: IFileSystem, roots: readonly string[], mtime: Date): Promise<void> {
  const pending = [...roots];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    await fs.utimes(path, mtime, mtime);
    if (!(await fs.stat(path)).isDirectory) continue;
    for (const name of await fs.readdir(path)) pending.push(`${path}/${name}`);
  }
}

export async function createJustBashSandbox(opts: JustBashSandboxOptions = {}): Promise<Sandbox> {
  const hub = new WatchHub();
  const initial: Record<string, string> = {};
  for (const [path, content] of Object.entries(opts.files ?? {})) initial[resolvePath(WORKDIR, path)] = content;
  const fs = trackMutations(new InMemoryFs(initial), (p) => hub.record(p));
  // The exec in progress, lent to node / npm / git so they can stop and stream (runtimes/hooks.ts).
  let running: { stop: StopSignal; live: LiveOutput } | null = null;
  const bash = new Bash({
    fs,
    customCommands: [
      ...runtimeCommands({
        fs: () => fs,
        stopped: () => running?.stop.signal.aborted ?? false,
        signal: () => running?.stop.signal,
        live: () => running?.live.sink,
      }),
      // Keeps its output when it reaches the loop limit (just-bash's own drops it all).
      createSeqCommand(),
    ],
    cwd: WORKDIR,
    env: { HOME: HOME_DIR, USER: 'user', ...opts.env },
    executionLimits: { maxExecutionTimeMs: MAX_EXEC_MS, maxOutputSize: BACKEND_MAX_OUTPUT_BYTES, ...opts.limits },
  });
  await fs.mkdir(WORKDIR, { recursive: true });
  await fs.mkdir(HOME_DIR, { recursive: true });
  for (const dir of opts.dirs ?? []) await fs.mkdir(resolvePath(WORKDIR, dir), { recursive: true });
  if (opts.mtimeMs !== undefined) await stampTree(fs, [WORKDIR, HOME_DIR], new Date(opts.mtimeMs));
  hub.clear();
  let disposed = false;

  async function exec(command: string, o: ExecOptions = {}): Promise<ExecResult> {
    if (disposed) return finishExec({ stdout: '', stderr: 'The sandbox was disposed; start a new one.\n', exitCode: 126 }, o, true);
    if (o.signal?.aborted) return finishExec({ stdout: '', stderr: stopNotice('abort'), exitCode: 130, aborted: true }, o, true);
    const cwd = resolvePath(WORKDIR, o.cwd ?? WORKDIR);
    const cwdStat = await fs.stat(cwd).catch(() => null);
    if (!cwdStat?.isDirectory) {
      return finishExec({ stdout: '', stderr: `bash: cd: ${cwd}: No such file or directory\n`, exitCode: 1 }, o, true);
    }
    const stop = createStopSignal(o.signal, Math.min(o.timeoutMs ?? MAX_EXEC_MS, MAX_EXEC_MS));
    const live = liveOutput(o);
    running = { stop, live };
    let res: BashExecResult;
    try {
      res = await bash.exec(command, {
        cwd,
        env: { PWD: cwd, ...o.env },
        signal: stop.signal,
        ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
        // Heredocs and indented scripts must reach the interpreter as written.
        rawScript: true,
      });
    } catch (err) {
      // exec is documented never to reject; keep our own contract if it ever does.
      res = { stdout: '', stderr: `bash: internal error: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 126, env: {} };
    } finally {
      stop.dispose();
      running = null;
      hub.flush();
    }
    const cause = stop.cause() ?? (res.exitCode === 124 && BACKEND_STOP_LINE.test(res.stderr) ? 'timeout' : null);
    const raw = !cause
      ? { stdout: res.stdout, stderr: res.stderr, exitCode: res.exitCode }
      : {
          stdout: res.stdout,
          stderr: res.stderr.replace(BACKEND_STOP_LINE, '') + stopNotice(cause, o.timeoutMs ?? MAX_EXEC_MS),
          exitCode: cause === 'timeout' ? 124 : 130,
          timedOut: cause === 'timeout',
          aborted: cause === 'abort',
        };
    if (!live.used()) return finishExec(raw, o, true);
    // just-bash drops a stopped command's output; keep what was already shown live.
    if (cause) raw.stdout = live.keepStreamed(raw.stdout, 'stdout');
    live.deliverRest(raw);
    return finishExec(raw, o, false);
  }

  return {
    kind: 'just-bash',
    workdir: WORKDIR,
    // Same thread as the caller: an abort waits for the loop to yield (see the note above).
    capabilities: { preemptiveAbort: false },
    exec,
    fs: new JustBashFs(fs, hub),
    // Its `git` command (isomorphic-git) drives the harness's git-backed workspaces too.
    git: shellGit(exec),
    dispose: () => {
      disposed = true;
      hub.clear();
      return Promise.resolve();
    },
  };
}
