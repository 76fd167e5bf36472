/**
 * The worker side: hosts the ordinary in-thread just-bash sandbox (`createJustBashSandbox`) and
 * serves the page's requests. Independent of the worker API (`sandbox-worker.ts` wires a browser Worker,
 * `node-entry.ts` a node:worker_threads one), so Node tests run exactly this code.
 *
 * Abort: just-bash reads `signal.aborted` synchronously before every command (that is how our
 * timeouts stop busy loops, see `../justbash/stop-signal.ts`). Here the signal's `aborted` also
 * reads a shared flag the page sets with `Atomics.store`, so a busy loop that never lets the
 * worker read its messages still stops at its next command. Without shared memory the `abort`
 * message is all there is; the page terminates the worker if the command does not stop.
 */
import type { ExecOptions, Sandbox } from '../../harness/ports.ts';
import { createJustBashSandbox } from '../justbash/index.ts';
import { ChangeCollector } from './change-collector.ts';
import { errorToWire, isFsOp } from './protocol.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

/**
 * Taken before any script runs: just-bash's defence in depth replaces `globalThis.Atomics` with a
 * throwing stand-in while a script executes ("Atomics could enable side-channel communication"),
 * and our getter is called exactly then. The function itself is untouched.
 */
const atomicLoad = Atomics.load.bind(Atomics);

/**
 * A busy loop here can be stopped (abort or timeout), so it is not cut at just-bash's default
 * 100,000 commands / iterations: `while true; do :; done` runs until Stop or its timeout, as in bash.
 */
const WORKER_LIMITS = { maxCommandCount: 1e9, maxLoopIterations: 1e9 };

export type HostEndpoint = {
  post(msg: FromWorker): void;
  listen(handler: (msg: ToWorker) => void): void;
};

/** A signal that is aborted when `controller` aborts or the page stores a non-zero into `flag`. */
function sharedAbortSignal(controller: AbortController, flag: SharedArrayBuffer | undefined): AbortSignal {
  const signal = controller.signal;
  if (!flag) return signal;
  const view = new Int32Array(flag);
  const nativeAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
  Object.defineProperty(signal, 'aborted', {
    configurable: true,
    get: () => (nativeAborted?.call(signal) as boolean | undefined) === true || atomicLoad(view, 0) !== 0,
  });
  return signal;
}

export function serveSandbox(endpoint: HostEndpoint): void {
  let sandbox: Promise<{ sb: Sandbox; collector: ChangeCollector }> | undefined;
  const controllers = new Map<number, AbortController>();
  const dirty = new Set<string>();
  // Change reports are chained so each reply goes out after every change made before it.
  let reports: Promise<void> = Promise.resolve();

  function reportChanges(collector: ChangeCollector): Promise<void> {
    reports = reports.then(async () => {
      if (dirty.size === 0) return;
      const paths = [...dirty].sort();
      dirty.clear();
      try {
        endpoint.post({ t: 'changed', paths, mirror: await collector.collect(paths) });
      } catch {
        // The mirror is a fallback; a failed read must not lose the reply. Watchers still hear.
        endpoint.post({ t: 'changed', paths, mirror: [] });
      }
    });
    // One failed report must not stall every later reply behind a rejected chain.
    reports = reports.catch(() => {});
    return reports;
  }

  async function init(msg: Extract<ToWorker, { t: 'init' }>): Promise<{ sb: Sandbox; collector: ChangeCollector }> {
    const started = Date.now();
    const sb = await createJustBashSandbox({
      files: msg.files,
      dirs: msg.dirs,
      limits: WORKER_LIMITS,
      ...(msg.env ? { env: msg.env } : {}),
      ...(msg.mtimeMs !== undefined ? { mtimeMs: msg.mtimeMs } : {}),
    });
    const collector = new ChangeCollector(sb.fs);
    await collector.baseline('/');
    sb.fs.watch((e) => e.paths.forEach((p) => dirty.add(p)));
    endpoint.post({ t: 'ready', ms: Date.now() - started });
    return { sb, collector };
  }

  async function exec(msg: Extract<ToWorker, { t: 'exec' }>): Promise<void> {
    const { sb, collector } = await sandbox!;
    const controller = new AbortController();
    controllers.set(msg.id, controller);
    const o = msg.opts;
    const opts: ExecOptions = {
      signal: sharedAbortSignal(controller, msg.abortFlag),
      ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
      ...(o.env !== undefined ? { env: o.env } : {}),
      ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.maxOutputChars !== undefined ? { maxOutputChars: o.maxOutputChars } : {}),
      ...(o.stream ? { onOutput: (chunk) => endpoint.post({ t: 'output', id: msg.id, chunk }) } : {}),
    };
    try {
      const result = await sb.exec(msg.command, opts);
      await reportChanges(collector);
      endpoint.post({ t: 'exec-done', id: msg.id, result });
    } finally {
      controllers.delete(msg.id);
    }
  }

  async function fs(msg: Extract<ToWorker, { t: 'fs' }>): Promise<void> {
    const { sb, collector } = await sandbox!;
    let reply: FromWorker;
    try {
      if (!isFsOp(msg.op)) throw new Error(`unknown file operation "${String(msg.op)}"`);
      const method = sb.fs[msg.op] as (...args: unknown[]) => Promise<unknown>;
      reply = { t: 'fs-done', id: msg.id, ok: true, value: await method.apply(sb.fs, msg.args) };
    } catch (err) {
      reply = { t: 'fs-done', id: msg.id, ok: false, error: errorToWire(err) };
    }
    await reportChanges(collector);
    endpoint.post(reply);
  }

  endpoint.listen((msg) => {
    switch (msg.t) {
      case 'init':
        sandbox = init(msg);
        sandbox.catch((err: unknown) => endpoint.post({ t: 'init-failed', message: err instanceof Error ? err.message : String(err) }));
        return;
      case 'reset':
        // Only sent for a sandbox that is up and idle: nothing of it is in flight, so dropping it is all.
        sandbox = undefined;
        controllers.clear();
        dirty.clear();
        return;
      case 'abort':
        controllers.get(msg.id)?.abort();
        return;
      case 'exec':
        void exec(msg).catch((err: unknown) =>
          endpoint.post({
            t: 'exec-done',
            id: msg.id,
            result: { stdout: '', stderr: `bash: internal error in the sandbox worker: ${String(err)}\n`, exitCode: 126, timedOut: false, aborted: false, truncated: false },
          }),
        );
        return;
      case 'fs':
        void fs(msg).catch((err: unknown) => endpoint.post({ t: 'fs-done', id: msg.id, ok: false, error: errorToWire(err) }));
        return;
    }
  });
}
