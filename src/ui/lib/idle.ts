/**
 * Runs `fn` when the browser is next idle (`requestIdleCallback`), at the latest after `timeoutMs`;
 * where there is no idle callback (Safari), on the next task. Returns a cancel. For work the page
 * can do without before its first paint or a click's answer: prefetches, sizes shown beside a button.
 */
export function whenIdle(fn: () => void, timeoutMs: number): () => void {
  const g = globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
  if (!g.requestIdleCallback) {
    const id = setTimeout(fn, 0);
    return () => clearTimeout(id);
  }
  const id = g.requestIdleCallback(fn, { timeout: timeoutMs });
  return () => g.cancelIdleCallback?.(id);
}
