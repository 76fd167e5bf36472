/**
 * V8's code cache for the bundled runner (issue 23 §3). Node 20 keeps no compiled code between
 * runs for ES modules (`module.enableCompileCache` is Node 22), so every start compiled the
 * runner's chunks again: ~110 ms of `compileSourceTextModule` on the main thread before the first
 * request, in a CPU profile. A classic script can take V8's `cachedData`, so the build also emits
 * the runner as one CommonJS script (`dist-cli/runner.cjs`, wrapped in a function, ASCII only) and
 * the launcher (`launch.ts`, `dist-cli/harness.mjs`) compiles it with the cache this module names.
 *
 * The two halves meet through one global (the launcher and the runner are separate bundles):
 * the launcher installs a {@link CodeCacheHook}; the runner calls {@link saveCodeCache} once its
 * first request has left (or at the end of a run that sent none), which writes the cache if the
 * start had none (or V8 rejected it). What it holds is what was compiled by then: start-up's code.
 *
 * What V8 checks before it uses a cache: its own version, a hash of its flags, and the source's
 * *length* only. So the file is named for what else must match: the build (a hash of the script
 * the build wrote, baked into the launcher), V8's version, and the flags Node was started with. The
 * cache lives beside the bundle (never in a shared temp folder: deserialising a cache someone else
 * planted would run their bytecode); a torn or foreign file is rejected by V8 and rewritten.
 */
import { digest } from '../model/scripted/recorded-results.ts';
import { withStartupHeapFlags } from './heap.ts';

/** The folder beside the bundle that holds the caches (`dist-cli/code-cache/`). */
export const CODE_CACHE_DIR = 'code-cache';

/** `HARNESS_PLAYGROUND_CODE_CACHE`: `off` runs the ES-module runner (no cache); `verbose` says on stderr what the cache did. */
export const CODE_CACHE_ENV = 'HARNESS_PLAYGROUND_CODE_CACHE';

const HOOK = Symbol.for('harness-playground.code-cache');

/** What the launcher leaves for the runner. */
export interface CodeCacheHook {
  /** True until a cache has been written (or the start used one). */
  pending: boolean;
  /** Writes the cache of the runner's script (atomically: a temporary file renamed over the name). */
  write(): void;
}

/** The launcher's side: makes `hook` the one {@link saveCodeCache} uses. */
export function installCodeCacheHook(hook: CodeCacheHook): void {
  (globalThis as Record<symbol, unknown>)[HOOK] = hook;
}

/**
 * Writes the code cache if this start had none: once, at the first call. V8 rejects a cache made
 * under other flags than the next start's, and `heap.ts` sets flags at run time, so they are put
 * back to the start's for the write. A failed write (a read-only folder, a full disk) only means
 * the next start compiles as this one did. Without the launcher's hook (the ES-module runner,
 * tests calling `main`) it does nothing.
 */
export function saveCodeCache(): void {
  const hook = (globalThis as Record<symbol, CodeCacheHook | undefined>)[HOOK];
  if (!hook?.pending) return;
  hook.pending = false;
  withStartupHeapFlags(() => hook.write());
}

/**
 * The cache's file name for this process: the build's id, V8's version, and Node's start-up
 * flags (`execArgv` and `NODE_OPTIONS`, which can set V8 flags and so change V8's flag hash).
 */
export function codeCacheFileName(buildId: string, v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined): string {
  // A short FNV-1a fingerprint: a name, not a security measure.
  const flags = digest(JSON.stringify([execArgv, nodeOptions ?? '']));
  return `runner-${buildId}-v8-${v8Version.replace(/[^\w.-]/g, '_')}-${flags}.bin`;
}
