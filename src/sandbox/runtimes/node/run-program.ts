/**
 * Runs one JavaScript program in a fresh QuickJS runtime: the guest Node library first
 * (guest/*.ts), then the program — a CommonJS or ES module file, or `-e` code — and then an
 * event loop that runs promise jobs and fires timers (waiting real time for them) until
 * nothing is left, the program calls `process.exit`, or the run is stopped.
 *
 * Limits: the interrupt handler polls `io.stopped()` (Stop, the exec timeout) and ends even a
 * busy loop; `memoryLimitBytes` caps the heap and an allocation past it ends the program with
 * "node: out of memory (limit N MB)" and exit 134, as Node's own heap limit aborts.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { dirname } from '../../../harness/util/index.ts';
import { ASSERT_SOURCE } from './guest/assert.ts';
import { CORE_SOURCE } from './guest/core.ts';
import { FS_PATH_SOURCE } from './guest/fs-path.ts';
import { MODULES_SOURCE } from './guest/modules.ts';
import { REJECTIONS_SOURCE } from './guest/rejections.ts';
import { TEST_RUNNER_SOURCE } from './guest/test-runner.ts';
import { newEngine } from './quickjs.ts';
import { formatOf, ResolveError, resolveModule } from './resolve.ts';
import { FsOpError } from './snapshot-fs.ts';
import type { SnapshotFs } from './snapshot-fs.ts';
import type { TestFileResult } from './tap-report.ts';
import { withoutInternalFrames } from './frames.ts';
import { renderUncaught } from './uncaught.ts';

export type NodeProgram = { kind: 'file'; path: string } | { kind: 'eval'; code: string; print: boolean };

export type ProgramIo = {
  write(fd: 1 | 2, text: string): void;
  /** Polled by the interrupt handler and the event loop; true once the run must end. */
  stopped(): boolean;
  /** Fires when the run is stopped, to cut a timer wait short. */
  signal?: AbortSignal;
};

export type ProgramRequest = {
  program: NodeProgram;
  fs: SnapshotFs;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  io: ProgramIo;
  memoryLimitBytes: number;
};

export type ProgramOutcome = {
  exitCode: number;
  stopped: boolean;
  outOfMemory: boolean;
  /** What `node:test` collected, when the program registered tests. */
  tests?: TestFileResult;
};

const GUEST_SOURCES: [string, string][] = [
  ['node:internal/core', CORE_SOURCE],
  ['node:internal/fs-path', FS_PATH_SOURCE],
  ['node:internal/assert', ASSERT_SOURCE],
  ['node:internal/test', TEST_RUNNER_SOURCE],
  ['node:internal/modules', MODULES_SOURCE],
  ['node:internal/process/promises', REJECTIONS_SOURCE],
];

/** QuickJS reports a failed allocation as this error (or as a bare exception). */
const OOM = /out of memory/i;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function wireError(err: unknown): { code: string; message: string; errno?: number; syscall?: string; path?: string } {
  if (err instanceof FsOpError) return { code: err.code, message: err.message, errno: err.errno, syscall: err.syscall, path: err.path };
  if (err instanceof ResolveError) return { code: err.code, message: err.message };
  return { code: 'ERR_SANDBOX_INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

export async function runProgram(req: ProgramRequest): Promise<ProgramOutcome> {
  const { fs, io } = req;
  const engine = await newEngine(req.memoryLimitBytes);
  const rt = engine.qjs.newRuntime();
  rt.setMaxStackSize(1024 * 1024);
  let exitCode: number | null = null;
  let failed = false;
  let outOfMemory = false;
  let tests: TestFileResult | undefined;
  rt.setInterruptHandler(() => exitCode !== null || io.stopped());
  const vm = rt.newContext();

  const host = (op: string, args: unknown[]): unknown => {
    // The guest library is ours and passes the right shapes (guest/*.ts).
    const a = args as [never, never, never, never];
    switch (op) {
      case 'boot':
        return { argv: req.argv, env: req.env, cwd: req.cwd, engine: 'quickjs-ng 0.32.0' };
      case 'write':
        io.write(a[0], a[1]);
        return null;
      case 'exit':
        exitCode ??= a[0];
        return null;
      case 'now':
        return performance.now();
      case 'readFile':
        return fs.readFile(a[0]);
      case 'writeFile':
        fs.writeFile(a[0], a[1], a[2]);
        return null;
      case 'stat':
        return fs.stat(a[0]);
      case 'readdir':
        return fs.readdir(a[0]);
      case 'mkdir':
        return fs.mkdir(a[0], a[1]) ?? null;
      case 'rm':
        fs.rm(a[0], a[1], a[2], a[3]);
        return null;
      case 'rename':
        fs.rename(a[0], a[1]);
        return null;
      case 'cp':
        fs.cp(a[0], a[1], a[2]);
        return null;
      case 'resolve':
        return resolveModule(fs, a[0], a[1]);
      case 'testResults':
        tests = a[0];
        return null;
      default:
        throw new Error(`unknown host call ${op}`);
    }
  };

  const hostFn = vm.newFunction('__host', (opH, argsH) => {
    const op = vm.getString(opH);
    let reply: string;
    try {
      reply = JSON.stringify({ ok: host(op, JSON.parse(vm.getString(argsH)) as unknown[]) });
    } catch (err) {
      reply = JSON.stringify({ err: wireError(err) });
    }
    return vm.newString(reply);
  });
  vm.setProp(vm.global, '__host', hostFn);
  hostFn.dispose();
  const compileFn = vm.newFunction('__compile', (srcH, fileH) => vm.evalCode(vm.getString(srcH), vm.getString(fileH)));
  vm.setProp(vm.global, '__compile', compileFn);
  compileFn.dispose();

  const evalGuest = (code: string): string => {
    const r = vm.evalCode(code, 'node:internal/bridge');
    if (r.error) {
      const msg = describe(vm, r.error);
      r.error.dispose();
      throw new ResolveError('ERR_REQUIRE', msg);
    }
    const out = vm.typeof(r.value) === 'string' ? vm.getString(r.value) : '';
    r.value.dispose();
    return out;
  };

  // A failed resolution is not reported by QuickJS from the normalizer, so it resolves to a
  // placeholder name whose loading fails with the message.
  const resolveFailures: string[] = [];
  rt.setModuleLoader(
    (name) => {
      const failure = /^node:sandbox-resolve-error\/(\d+)$/.exec(name);
      if (failure) return { error: new Error(resolveFailures[Number(failure[1])] ?? 'module not found') };
      try {
        if (name.startsWith('node:')) return evalGuest(`__node.esmBridge('builtin', ${JSON.stringify(name.slice(5))})`);
        const format = formatOf(fs, name);
        if (format === 'json') return `export default ${fs.readFile(name)};`;
        if (format === 'cjs') return evalGuest(`__node.esmBridge('cjs', ${JSON.stringify(name)})`);
        return withImportMeta(fs.readFile(name), name);
      } catch (err) {
        return { error: new Error(wireError(err).message) };
      }
    },
    (base, request) => {
      try {
        const r = resolveModule(fs, request, base.startsWith('/') ? dirname(base) : req.cwd, true);
        return r.kind === 'builtin' ? `node:${r.name}` : r.path;
      } catch (err) {
        resolveFailures.push(wireError(err).message);
        return `node:sandbox-resolve-error/${resolveFailures.length - 1}`;
      }
    },
  );

  /** Handles an exception that reached the top: exit, stop, out of memory, or a real error. */
  const uncaught = (errH: QuickJSHandle) => {
    const isExit = callBool(vm, 'e => e instanceof __node.ExitSignal', errH);
    if (isExit || exitCode !== null) return;
    if (io.stopped()) return;
    const shown = engine.atMemoryCap() ? 'out of memory' : inspectError(vm, errH);
    if (OOM.test(shown) || engine.atMemoryCap()) {
      outOfMemory = true;
      return;
    }
    failed = true;
    io.write(2, renderUncaught(shown, fs));
  };

  const settle = (r: { error?: QuickJSHandle; value?: QuickJSHandle }): QuickJSHandle | undefined => {
    if (r.error) {
      uncaught(r.error);
      r.error.dispose();
      return undefined;
    }
    return r.value;
  };

  const finished = () => exitCode !== null || failed || outOfMemory || io.stopped();

  /** Promise jobs and timers until nothing is left (or the run ends). */
  const drain = async () => {
    for (;;) {
      const jobs = rt.executePendingJobs();
      if (jobs.error) {
        uncaught(jobs.error);
        jobs.error.dispose();
      }
      if (finished()) return;
      // Like Node, a rejection nobody handled by the end of this round of jobs ends the program.
      const unhandled = settle(vm.evalCode('__node.takeUnhandled()', 'node:internal/process/promises'));
      if (unhandled && vm.typeof(unhandled) !== 'undefined') uncaught(unhandled);
      unhandled?.dispose();
      if (finished()) return;
      if (rt.hasPendingJob()) continue;
      const due = callNumber(vm, '__node.nextTimerDue()');
      if (due < 0) return;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait, io.signal);
      if (finished()) return;
      settle(vm.evalCode(`__node.fireTimers(${performance.now()})`, 'node:internal/timers'))?.dispose();
    }
  };

  let mainPromise: QuickJSHandle | undefined;
  try {
    for (const [file, source] of GUEST_SOURCES) {
      const r = vm.evalCode(source, file);
      if (r.error) throw new Error(`node: the sandbox's Node library failed to start (${file}): ${describe(vm, r.error)}`);
      r.value.dispose();
    }
    const p = req.program;
    if (p.kind === 'eval') {
      settle(vm.evalCode(`__node.runEval(${JSON.stringify(p.code)}, ${p.print})`, '[eval]'))?.dispose();
    } else if (formatOf(fs, p.path) === 'esm') {
      mainPromise = settle(vm.evalCode(withImportMeta(fs.readFile(p.path), p.path), p.path, { type: 'module' }));
    } else {
      settle(vm.evalCode(`__node.runMain(${JSON.stringify(p.path)}, ${JSON.stringify(formatOf(fs, p.path))})`, 'node:internal/main'))?.dispose();
    }
    await drain();
    if (mainPromise && !finished()) {
      const state = vm.getPromiseState(mainPromise);
      if (state.type === 'rejected') {
        uncaught(state.error);
        state.error.dispose();
      } else if (state.type === 'fulfilled' && state.value !== mainPromise) state.value.dispose();
    }
    if (!finished() && callBool(vm, '() => __node.testsRegistered()')) {
      settle(vm.evalCode('__node.runTests()', 'node:internal/test'))?.dispose();
      await drain();
    }
    const stopped = io.stopped() && exitCode === null;
    const code = exitCode ?? (failed ? 1 : outOfMemory ? 134 : stopped ? 130 : processExitCode(vm));
    return { exitCode: tests && countFailures(tests) > 0 && exitCode === null && code === 0 ? 1 : code, stopped, outOfMemory, ...(tests ? { tests } : {}) };
  } catch (err) {
    // The WebAssembly instance itself failed (out of memory inside QuickJS's own bookkeeping).
    if (!engine.atMemoryCap()) throw err;
    return { exitCode: 134, stopped: false, outOfMemory: true };
  } finally {
    // A run that was interrupted (Stop, timeout, process.exit) or ran out of memory can leave QuickJS's heap
    // mid-operation, and freeing it then trips QuickJS's leak assertion, which aborts the WebAssembly
    // instance and logs to the console. The instance is this run's alone (quickjs.ts), so it is
    // simply dropped; a run that ended normally is freed, which keeps handle leaks visible.
    if (exitCode === null && !io.stopped() && !outOfMemory && !engine.atMemoryCap()) {
      try {
        mainPromise?.dispose();
        vm.dispose();
        rt.dispose();
      } catch {
        // Freeing failed; the instance is dropped with the run either way.
      }
    }
  }
}

function countFailures(t: TestFileResult): number {
  const walk = (nodes: TestFileResult['children']): number => nodes.reduce((n, c) => n + (c.status === 'fail' ? 1 : 0) + walk(c.children), 0);
  return walk(t.children) + (t.error ? 1 : 0);
}

/** `import.meta.url` / `dirname` / `filename` for a module file (QuickJS leaves them unset). */
function withImportMeta(source: string, path: string): string {
  return source
    .replace(/\bimport\.meta\.url\b/g, JSON.stringify(`file://${path}`))
    .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(path)))
    .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(path));
}

function describe(vm: QuickJSContext, errH: QuickJSHandle): string {
  const d: unknown = vm.dump(errH);
  if (d && typeof d === 'object' && 'message' in d) {
    const e = d as { name?: string; message?: string; stack?: string };
    return `${e.name ?? 'Error'}: ${e.message ?? ''}${e.stack ? `\n${e.stack}` : ''}`;
  }
  return String(d);
}

function inspectError(vm: QuickJSContext, errH: QuickJSHandle): string {
  const fn = vm.evalCode('(e) => __node.inspect(e)');
  if (fn.error) {
    fn.error.dispose();
    return describe(vm, errH);
  }
  const r = vm.callFunction(fn.value, vm.undefined, errH);
  fn.value.dispose();
  if (r.error) {
    r.error.dispose();
    return describe(vm, errH);
  }
  const text = vm.getString(r.value);
  r.value.dispose();
  return withoutInternalFrames(text.replace(/\n+$/, ''));
}

function callBool(vm: QuickJSContext, fnSource: string, arg?: QuickJSHandle): boolean {
  const fn = vm.evalCode(fnSource);
  if (fn.error) {
    fn.error.dispose();
    return false;
  }
  const r = arg ? vm.callFunction(fn.value, vm.undefined, arg) : vm.callFunction(fn.value, vm.undefined);
  fn.value.dispose();
  if (r.error) {
    r.error.dispose();
    return false;
  }
  const v = vm.dump(r.value) === true;
  r.value.dispose();
  return v;
}

function callNumber(vm: QuickJSContext, expr: string): number {
  const r = vm.evalCode(expr);
  if (r.error) {
    r.error.dispose();
    return -1;
  }
  const n: unknown = vm.dump(r.value);
  r.value.dispose();
  return typeof n === 'number' ? n : -1;
}

function processExitCode(vm: QuickJSContext): number {
  const n = callNumber(vm, 'Number(process.exitCode) | 0');
  return n < 0 ? 1 : n;
}
