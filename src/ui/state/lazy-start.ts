/**
 * The page's `RunStarter` as the first screen carries it: `start-run.ts` (and with it the whole
 * harness) is fetched by `import()`, started as the run controller is made (`prefetchStartRun`,
 * while the entry still evaluates): the first screen paints without waiting for it, and its chunks
 * arrive and evaluate right after the first frame. Started at idle time instead (until round 18),
 * a Step clicked in the frame it was enabled waited ~110 ms for them; started here, ~65 ms, with
 * cold usable unchanged (12 alternated cold loads in a visitor's browser, 362 → 365 ms). A Step
 * clicked before it has arrived waits for it with "Loading the harness…" in the header (the run's
 * phase), never silently.
 */
import type { RunStarter } from './run-starter.ts';

type StartRunModule = typeof import('./start-run.ts');

let loading: Promise<StartRunModule> | null = null;
let loaded: StartRunModule | null = null;

/** The starter's module, fetched once per page. */
export function startRunModule(): Promise<StartRunModule> {
  return (loading ??= import('./start-run.ts').then((m) => (loaded = m)));
}

/** Starts fetching the starter now (idempotent); a failed fetch is reported by the Step that needs it. */
export function prefetchStartRun(): void {
  startRunModule().catch(() => {
    // Fetched again at the Step, which says what went wrong.
    loading = null;
  });
}

export const lazyScenarioRun: RunStarter = async (host, run, opts) => {
  if (!loaded) run.phase = 'Loading the harness…';
  const { startScenarioRun } = await startRunModule();
  return startScenarioRun(host, run, opts);
};
