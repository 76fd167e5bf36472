/**
 * Delay before retry number `retry` (0-based) when the server did not say how long to wait:
 * 0.5 s × 2ⁿ, capped. No jitter: one browser tab is not a thundering herd, and a fixed schedule
 * keeps recorded runs reproducible.
 */
export function backoffMs(retry: number, capMs: number): number {
  return Math.min(500 * 2 ** retry, capMs);
}
