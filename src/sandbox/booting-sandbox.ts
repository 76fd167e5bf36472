/**
 * A {@link Sandbox} to hand out while the real one starts: the page's just-bash worker compiles
 * ~0.7 MB and builds its interpreter before it can answer (on a cold two-core load, the first Step
 * waited ~70 ms for it after the harness had arrived; issue 23 §4). Until it is up:
 * - a read (`stat`, `list`, `readFile`) that the {@link BootView} can answer for certain is
 *   answered from it: the sandbox holds exactly its start files then, because nothing else has
 *   been sent to it;
 * - anything else — a command, a write, a read the view cannot vouch for, and every read asked
 *   for after a command or a write — waits for the sandbox and then goes to it, as calls made at
 *   that moment would (concurrent calls are no more ordered than the sandbox orders them).
 * Once the sandbox is up every call goes straight to it. If it cannot start, file calls reject
 * `EIO` and commands end with exit 126, both saying why, and `ready` rejects.
 */
import { SandboxFsError, WORKDIR } from '../harness/ports.ts';
import type { ExecOptions, ExecResult, Sandbox, SandboxCapabilities, SandboxFs } from '../harness/ports.ts';
import type { BootView } from './boot-view.ts';
import { finishExec, stopNotice } from './exec-output.ts';
import { shellGit } from './git-port.ts';

export type BootingSandbox = Sandbox & {
  /** The started sandbox (rejects, saying why, when it could not start or this was disposed first). */
  readonly ready: Promise<Sandbox>;
};

export type BootingSandboxOptions = {
  /** Starts the real sandbox; it must start from what `view` describes. */
  start: Promise<Sandbox>;
  /** What the started sandbox will answer to reads; null: every call waits for it. */
  view: BootView | null;
  /** What the started sandbox is expected to promise, read while it starts. */
  capabilities?: SandboxCapabilities;
};

type Listener = Parameters<SandboxFs['watch']>[0];

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function bootingSandbox(opts: BootingSandboxOptions): BootingSandbox {
  let up: Sandbox | null = null;
  let disposed = false;
  /** It could not start: nothing is answered any more, not even from the view. */
  let failed = false;
  /** A command or a write was asked for: from then on the view may not describe the sandbox. */
  let diverged = false;
  /** Watchers subscribed while it starts, each with its unsubscribe once it is up. */
  const watchers = new Set<{ listener: Listener; stop: () => void }>();

  const ready = opts.start.then(
    (sb) => {
      if (disposed) {
        // Disposed while it started: released now (a just-bash worker that ran nothing goes back for the next sandbox).
        return sb.dispose().then(() => {
          throw new Error('The sandbox was disposed; start a new one.');
        });
      }
      up = sb;
      for (const w of watchers) w.stop = sb.fs.watch(w.listener);
      return sb;
    },
    (err: unknown) => {
      failed = true;
      throw new Error(`The sandbox did not start: ${message(err)}`, { cause: err });
    },
  );
  // Whoever waits on `ready` hears the failure; an unobserved one must not be an unhandled rejection.
  ready.catch(() => {});

  /** The started sandbox, for a call on `path`; rejects EIO, saying why, if there is none. */
  function started(path: string): Promise<Sandbox> {
    if (disposed) return Promise.reject(new SandboxFsError('EIO', path, 'The sandbox was disposed; start a new one.'));
    if (up) return Promise.resolve(up);
    return ready.catch((err: unknown) => {
      throw new SandboxFsError('EIO', path, message(err));
    });
  }

  /** A read: from the view while that is certain (nothing but reads asked for so far), else from the sandbox. */
  function read<T>(op: 'readFile' | 'list' | 'stat' | 'realpath', path: string, call: (fs: SandboxFs) => Promise<T>): Promise<T> {
    if (!up && !disposed && !failed && !diverged && opts.view) {
      const answer = opts.view.answer(op, [path]);
      if (answer) return 'error' in answer ? Promise.reject(answer.error) : Promise.resolve(answer.value as T);
    }
    return started(path).then((sb) => call(sb.fs));
  }

  function write<T>(path: string, call: (fs: SandboxFs) => Promise<T>): Promise<T> {
    diverged = true;
    return started(path).then((sb) => call(sb.fs));
  }

  function exec(command: string, o: ExecOptions = {}): Promise<ExecResult> {
    if (up && !disposed) return up.exec(command, o);
    diverged = true;
    const aborted = () => finishExec({ stdout: '', stderr: stopNotice('abort'), exitCode: 130, aborted: true }, o, true);
    if (o.signal?.aborted) return Promise.resolve(aborted());
    // Stop while it waits for the sandbox ends it now (a worker that hangs takes its start timeout,
    // 30 s, to fail), and the command never runs.
    return new Promise<ExecResult>((resolve) => {
      const onAbort = () => resolve(aborted());
      o.signal?.addEventListener('abort', onAbort, { once: true });
      started(WORKDIR).then(
        (sb) => {
          o.signal?.removeEventListener('abort', onAbort);
          if (!o.signal?.aborted) resolve(sb.exec(command, o));
        },
        (err: unknown) => {
          o.signal?.removeEventListener('abort', onAbort);
          resolve(finishExec({ stdout: '', stderr: `${message(err)}\n`, exitCode: 126 }, o, true));
        },
      );
    });
  }

  const fs: SandboxFs = {
    readFile: (path) => read('readFile', path, (f) => f.readFile(path)),
    list: (dir) => read('list', dir, (f) => f.list(dir)),
    stat: (path) => read('stat', path, (f) => f.stat(path)),
    realpath: (path) => read('realpath', path, (f) => f.realpath(path)),
    writeFile: (path, content) => write(path, (f) => f.writeFile(path, content)),
    mkdir: (path, o) => write(path, (f) => f.mkdir(path, o)),
    rm: (path, o) => write(path, (f) => f.rm(path, o)),
    rename: (from, to) => write(from, (f) => f.rename(from, to)),
    watch(listener) {
      if (up) return up.fs.watch(listener);
      const w = { listener, stop: () => {} };
      watchers.add(w);
      return () => {
        w.stop();
        watchers.delete(w);
      };
    },
  };

  return {
    kind: 'just-bash',
    workdir: WORKDIR,
    get capabilities() {
      return up ? up.capabilities : opts.capabilities;
    },
    exec,
    fs,
    git: shellGit(exec),
    ready,
    dispose() {
      if (disposed) return Promise.resolve();
      disposed = true;
      for (const w of watchers) w.stop();
      watchers.clear();
      // Not up yet: `ready` disposes it as it arrives, and this settles once it has.
      return up ? up.dispose() : ready.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
