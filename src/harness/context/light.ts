/**
 * The context folder's light entry point: the parts the first screen and the scripted model need
 * (an empty context state, the prompt-cache simulator) without the pipeline or the context settings
 * schema (zod), which load with a run.
 */
export { emptyContextState, type ContextState } from './state.ts';
export { simulateCacheUsage, emptyCacheSim, type CacheSimState, type CacheSimOptions } from './cache-sim.ts';
