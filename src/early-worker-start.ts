/**
 * Imported first by `main.ts`: a page whose script came from the HTTP cache starts its sandbox worker
 * before the rest of the entry runs; a first visit starts it once the harness has loaded
 * (`sandbox/justbash-worker/early-worker.ts` says why, `ui/state/lazy-start.ts` holds the gate).
 */
import { startEarlyWorker } from './sandbox/justbash-worker/early-worker.ts';
import { loadedFromCache } from './ui/lib/script-cache.ts';

if (loadedFromCache(import.meta.url)) startEarlyWorker();
