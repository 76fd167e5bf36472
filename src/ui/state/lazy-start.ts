/**
 * The page's `RunStarter` as the first screen carries it: `start-run.ts` (and with it the whole
 * harness) is fetched by `import()`, so the first screen paints without it. When it starts
 * (`prefetchStartRun`, from the run controller's constructor) depends on where this page's own
 * script came from:
 * - from the network (a first visit): at once, while the entry still evaluates. The chunks' fetch
 *   is what takes long then. Started at idle instead (until round 18), a Step clicked in the frame
 *   it was enabled waited ~110 ms for them; started here, ~65 ms (visitor's browser, 16 alternated
 *   cold loads: first Step 191 → 128 ms). The price: on a quiet machine they can arrive before the
 *   first frame and evaluate ahead of it — cold usable 330 → 373 ms in that run (+5 and −4 ms in
 *   noisier ones), well inside the 1 s target.
 * - from the HTTP cache (a reload, a return): at idle after the first paint, as before. Cached, the
 *   chunks arrive at once and would evaluate before the first frame: started at once, a reload's
 *   usable went 137 → 155 ms (12 alternated reloads; 134 with this rule), for a Step that finds
 *   them ready anyway.
 * A Step clicked before it has arrived waits for it with "Loading the harness…" in the header (the
 * run's phase), never silently.
 */
import type { RunStarter } from './run-starter.ts';
import { whenIdle } from '../lib/idle.ts';
import { loadedFromCache as cachedScript } from '../lib/script-cache.ts';
import { documentEnginesLoaded, loadDocumentEngines } from '../../harness/util/index.ts';

type StartRunModule = typeof import('./start-run.ts');

let loading: Promise<StartRunModule> | null = null;
let loaded: StartRunModule | null = null;

/** The starter's module, fetched once per page. Marks `hp:harness-loaded` (read by the first-screen bench) when it has run. */
export function startRunModule(): Promise<StartRunModule> {
  return (loading ??= import('./start-run.ts').then((m) => {
    globalThis.performance?.mark?.('hp:harness-loaded');
    return (loaded = m);
  }));
}

/** Whether this page's script came from the HTTP cache (`lib/script-cache.ts`; this module is in the entry). */
export function loadedFromCache(): boolean {
  return cachedScript(import.meta.url);
}

/**
 * When the page's first sandbox worker may be created (`sandbox/justbash-worker/early-worker.ts` says
 * why): on a first visit once the harness has loaded or failed to (a failure must not keep the sandbox
 * from starting); from the cache at once (its worker started with the entry).
 */
export function firstWorkerGate(): Promise<void> {
  if (loadedFromCache()) return Promise.resolve();
  return startRunModule().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Starts fetching the starter (idempotent; see above for when), and with it the document engines
 * (yaml, RE2: `prepareRun` awaits them, and so do the panels and the trust gate); a failed fetch is
 * reported by the Step (or the panel) that needs it.
 */
export function prefetchStartRun(): void {
  const start = () => {
    void startRunModule().catch(() => {
      // Fetched again at the Step, which says what went wrong.
      loading = null;
    });
    void loadDocumentEngines().catch(() => {});
  };
  if (loadedFromCache()) whenIdle(start, 500);
  else start();
}

/**
 * Starts a run once the harness and the document engines are here. If either cannot be fetched,
 * nothing has started and the notice says what happened (a reload is what fetches again: the
 * browser keeps a failed import's failure).
 */
export const lazyScenarioRun: RunStarter = async (host, run, opts) => {
  if (!loaded || !documentEnginesLoaded()) run.phase = 'Loading the harness…';
  let startScenarioRun: StartRunModule['startScenarioRun'];
  try {
    [{ startScenarioRun }] = await Promise.all([startRunModule(), loadDocumentEngines()]);
  } catch (e) {
    // A harness chunk that failed is fetched again by the next Step (the engines' load forgets its own failure).
    if (!loaded) loading = null;
    run.notice = `Nothing ran: ${e instanceof Error ? e.message : String(e)}`;
    return false;
  }
  return startScenarioRun(host, run, opts);
};
