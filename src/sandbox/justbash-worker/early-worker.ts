/**
 * The page's sandbox workers: the factory, and the early start of the first one.
 *
 * When the first worker starts depends on where the page's script came from (`src/early-worker-start.ts`
 * decides, `ui/state/lazy-start.ts` holds the gate):
 * - from the HTTP cache (a reload, a return): as the app's entry begins to run ({@link startEarlyWorker},
 *   imported first by `main.ts`), so just-bash compiles on the worker's thread while the page mounts and
 *   a restored session's files can go in at once. Chromium starts a worker's thread from the page's main
 *   thread, once the entry's long first task ends.
 * - from the network (a first visit): once the harness a Step runs has loaded (or failed to). On two
 *   cores just-bash's compile (~0.25 s of CPU) competed with the first paint and with the harness: started
 *   with the entry, visitor's browser, 8 alternated cold loads, usable 324 → 284 ms and the harness loaded
 *   407 → 363 ms once it waited, for a first sandbox ready 474 → 535 ms. A first Step does not wait for
 *   the worker: its start-up reads are answered from the start files (`sandbox/booting-sandbox.ts`).
 *
 * Measured, not adopted (round 14): a script of its own ahead of the app's in index.html, creating the
 * worker while the app's entry still downloads: cold usable 627 → 933 ms, the same competition.
 */

/** Whether this page can run the sandbox in a module Worker (not in Node, where tests import the spawner's module). */
export function canUseWorkers(): boolean {
  return typeof Worker === 'function' && typeof window !== 'undefined';
}

/** Starts a sandbox worker (`sandbox-worker.ts`, bundled by Vite as its own chunk). Marks the page's first (`hp:sandbox-worker-started`, read by the first-screen bench). */
export function newSandboxWorker(): Worker {
  // Written out here (not passed in) so Vite sees the URL and bundles sandbox-worker.ts as its own chunk.
  const worker = new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module', name: 'just-bash sandbox' });
  if (performance.getEntriesByName('hp:sandbox-worker-started').length === 0) performance.mark('hp:sandbox-worker-started');
  return worker;
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

/** Starts the page's first worker now (once; see above for when): the spawner hands it to the first sandbox. */
export function startEarlyWorker(): void {
  if (early || !canUseWorkers()) return;
  try {
    const entry = { worker: newSandboxWorker(), failed: false };
    // A worker that fails to load before the sandbox listens would lose its `error` event (the
    // sandbox would wait for its start timeout): noted here, and such a worker is never handed out.
    entry.worker.addEventListener('error', () => (entry.failed = true), { once: true });
    early = entry;
  } catch {
    // The spawner starts one when the sandbox asks, and reports why if it cannot.
  }
}
