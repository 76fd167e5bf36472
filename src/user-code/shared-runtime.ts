/**
 * One user-code frame for the page's custom tools (runs and golden re-runs alike), made on first
 * use: every job still gets its own Worker inside it.
 */
import { createFrameRuntime } from './frame-host.ts';
import type { UserCodeRuntime } from './types.ts';

let shared: UserCodeRuntime | null = null;

export function sharedFrameRuntime(): UserCodeRuntime {
  shared ??= createFrameRuntime();
  return shared;
}
