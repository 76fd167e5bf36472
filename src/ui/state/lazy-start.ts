/**
 * The page's `RunStarter` as the first screen carries it: `start-run.ts` (and with it the whole
 * harness, zod, re2js, yaml) is fetched by `import()`, started at idle time right after the first
 * paint (`prefetchStartRun`), so the first screen paints without it and a Step taken once the page
 * is idle finds it ready. A Step clicked before it has arrived waits for it with "Loading the
 * harness…" in the header (the run's phase), never silently.
 */
import type { RunStarter } from './run-starter.ts';
import { whenIdle } from '../lib/idle.ts';

type StartRunModule = typeof import('./start-run.ts');

let loading: Promise<StartRunModule> | null = null;
let loaded: StartRunModule | null = null;

/** The starter's module, fetched once per page. */
export function startRunModule(): Promise<StartRunModule> {
  return (loading ??= import('./start-run.ts').then((m) => (loaded = m)));
}

/** Starts fetching the starter when the browser is first idle after the paint (idempotent). */
export function prefetchStartRun(): void {
  if (loading) return;
  whenIdle(() => void startRunModule(), 500);
}

export const lazyScenarioRun: RunStarter = async (host, run, opts) => {
  if (!loaded) run.phase = 'Loading the harness…';
  const { startScenarioRun } = await startRunModule();
  return startScenarioRun(host, run, opts);
};
