/**
 * The runner's memory (issue 23 §3: peak RSS ≤ 150 MB on a 208-turn session). What a long run
 * keeps alive is small (a heap snapshot late in the 208-turn bench session holds ~18 MB); the peak
 * is V8's young generation, which it doubles up to 16 MB per semi-space (~34 MB resident) on this
 * thread and ~17 MB on the sandbox thread once a process allocates briskly, as a run does
 * (request bodies, streamed events), and then keeps. Measured on that session (bench
 * `cli-startup.ts`): 188–198 MB peak as it was, 147–151 MB with both kept small, and the same CPU.
 *
 * - The sandbox thread gets `resourceLimits.maxYoungGenerationSizeMb` (Node's documented knob).
 * - This thread has no such knob once started, so its young generation is kept at the size it has
 *   by setting V8's `--semi-space-growth-factor` to 1 at run time. A new worker thread
 *   re-initialises V8's flags for the whole process, so it is set again whenever one comes up
 *   (the sandbox thread's `online`); a thread started elsewhere (a JS hook, an MCP server in a
 *   thread) only lets the young generation grow again as before — slower to free, never wrong.
 *
 * The old generation is the other half (round 6): a run's garbage there is large strings — each
 * request's body, the session file's `model.request` line, both the whole conversation, several
 * hundred KB per turn — which V8 puts straight into large-object space and frees only at a full
 * GC. With its default heap growing factor (up to 4×) this thread's heap reached ~65 MB for ~21 MB
 * live by the end of the 208-turn session, in two full GCs. `--heap-growing-percent=20` (limit =
 * live × 1.2, V8's minimum step still applies) keeps it under ~45 MB for about six more full GCs
 * of 7–22 ms each (~100 ms CPU over the run). `cli-startup.ts --against`, old and new bundle
 * alternated at load 4–11: peak RSS median 160–164 → 143–150 MB (ranges 151–170 → 137–155).
 *
 * When (round 7): V8 checks a hash of its flags before it accepts cached code, so any flag set at
 * run time makes Node reject its embedded code cache for every built-in module loaded afterwards,
 * and for the whole bootstrap of a worker thread started afterwards (measured: a handful of
 * built-ins 6 → 15 ms, a new thread's first line 46 → 72 ms). `tuneHeapForCli` therefore only
 * turns tuning on; the flags are set once the sandbox thread is online (`reapplyHeapTuning`, its
 * bootstrap done with the cache), or when its sandbox falls back to this thread. The young
 * generation has not grown by then (peak RSS unchanged); the 1-turn run's CPU over both threads
 * fell ~70 ms (alternated runs, load 3–5). The built-ins the first request loads after that
 * (http, tls, http2, zlib, and undici on the SDK's first `Headers`: 38 ms cached, 91 ms not, in a
 * bare process) do compile without the cache, yet loading them first changed nothing measurable
 * (round 10, 15 alternated start-ups each: 464 ms to the first request as is, 463 with them loaded
 * in the entry, 460 with the flags held until that request left; main-thread CPU 381–388 ms in all
 * three), so the entry does not. (An `import 'node:http'` for its effect is no way to do it: the
 * bundler drops a bare import of a Node built-in, as round 7's did.)
 *
 * Only the runner's entry (`cli-main.ts`) turns this on: tests that call `main` in-process keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** The sandbox thread's young generation, MB: scavenges stay cheap (just-bash keeps little between commands). */
export const SANDBOX_YOUNG_GENERATION_MB = 4;

let tuned = false;

/** Young generation kept at its start-up size; the old one grown by 20 % over what a full GC left. */
const HEAP_FLAGS = '--semi-space-growth-factor=1 --heap-growing-percent=20';

/**
 * Turns tuning on: this thread's young generation kept at its size, its old generation close to
 * what is live — from the moment the sandbox thread is online (see above), not now.
 */
export function tuneHeapForCli(): void {
  tuned = true;
}

/** The same flags at V8's defaults (Node 20): what a start without them had. */
const DEFAULT_HEAP_FLAGS = '--semi-space-growth-factor=2 --heap-growing-percent=0';

/** Whether {@link HEAP_FLAGS} are in force now (set by this module, not yet put back). */
let applied = false;

/** Sets the flags, if the runner's entry turned tuning on: when the sandbox thread is up (a new thread resets them), or its sandbox runs in this thread. */
export function reapplyHeapTuning(): void {
  if (!tuned) return;
  setFlagsFromString(HEAP_FLAGS);
  applied = true;
}

/**
 * Runs `fn` with V8's flags as the process started with them, then sets the tuning again: V8
 * stamps a code cache with a hash of its flags and rejects it at a start whose flags differ, and a
 * start has not set these yet (`code-cache.ts`). The hash follows the values, so putting them back
 * restores it (checked by `test/unit/cli-code-cache.test.ts`: the next start accepts the cache).
 */
export function withStartupHeapFlags(fn: () => void): void {
  if (!applied) return fn();
  setFlagsFromString(DEFAULT_HEAP_FLAGS);
  try {
    fn();
  } finally {
    setFlagsFromString(HEAP_FLAGS);
  }
}
