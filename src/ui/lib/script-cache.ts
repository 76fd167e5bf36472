/**
 * Whether the page's own script came from the HTTP cache (a reload, a return) rather than the network
 * (a first visit): what the first screen schedules differently for (`ui/state/lazy-start.ts`,
 * `src/early-worker-start.ts`).
 */

/**
 * Whether the script at `url` (pass `import.meta.url` from an entry module) came from the HTTP cache:
 * its Resource Timing entry did not move its body over the network (a cache hit moves 0 bytes; a 304
 * only headers, and Chromium reports its body as 0). False where that cannot be told (no entry: Node,
 * a browser without the API).
 */
export function loadedFromCache(url: string): boolean {
  const entry = globalThis.performance?.getEntriesByName?.(url)[0] as PerformanceResourceTiming | undefined;
  if (entry === undefined) return false;
  const bodyOverNetwork = entry.encodedBodySize > 0 && entry.transferSize > entry.encodedBodySize;
  return !bodyOverNetwork;
}
