/**
 * The page's first sandbox worker, started as the app's entry begins to run (`main.ts` imports
 * this module before the app) instead of once the app has mounted and its boot chain asked for a
 * sandbox (`ui/state/run-sandbox.ts`, after a lazily loaded chunk). Its script's fetch starts then,
 * and its thread as soon as the entry's long first task ends: Chromium starts a worker's thread
 * from the page's main thread (a trace of a cold load: created at 247 ms, thread up at 611 ms, once
 * the entry had evaluated and mounted).
 *
 * Measured, not adopted: a script of its own ahead of the app's in index.html, creating the worker
 * while the app's entry still downloads. The first Step at usable went 275 → 117 ms, but on two
 * cores just-bash's compile (~0.25 s of CPU) then competed with the page's: cold usable 627 → 933 ms.
 *
 * The spawner (`index.ts`) takes this worker for the first sandbox: a fresh worker like any other,
 * no files, no command run. Every page boots a just-bash sandbox first (the default scenario, a
 * link's scenario until trusted, a teammate's tab); only a scenario set to WebContainer leaves it idle.
 */

/** Whether this page can run the sandbox in a module Worker (not in Node, where tests import the spawner's module). */
export function canUseWorkers(): boolean {
  return typeof Worker === 'function' && typeof window !== 'undefined';
}

/** Starts a sandbox worker (`sandbox-worker.ts`, bundled by Vite as its own chunk). */
export function newSandboxWorker(): Worker {
  // Written out here (not passed in) so Vite sees the URL and bundles sandbox-worker.ts as its own chunk.
  return new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module', name: 'just-bash sandbox' });
}

let early: { worker: Worker; failed: boolean } | null = null;

/** The early worker, once (null if none was started, it was taken, or it failed to load). */
export function takeEarlyWorker(): Worker | null {
  const entry = early;
  early = null;
  if (!entry) return null;
  if (entry.failed) {
    entry.worker.terminate();
    return null;
  }
  return entry.worker;
}

if (canUseWorkers()) {
  try {
    const entry = { worker: newSandboxWorker(), failed: false };
    // A worker that fails to load before the sandbox listens would lose its `error` event (the
    // sandbox would wait for its start timeout): noted here, and such a worker is never handed out.
    entry.worker.addEventListener('error', () => (entry.failed = true), { once: true });
    early = entry;
    performance.mark('hp:sandbox-worker-started');
  } catch {
    // The spawner starts one when the sandbox asks, and reports why if it cannot.
  }
}
