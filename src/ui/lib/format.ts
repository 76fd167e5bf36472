/** Small display helpers shared by panels. */
import { formatCount } from '../../harness/util/index.ts';

/**
 * `12345` → `"12,345"`, as `toLocaleString('en-US')` prints it but without ICU: the first
 * `toLocaleString` in a page loads ICU's number formatting, 50 ms of the first screen's main
 * thread (a cold load's profile; the header's token count is the first caller).
 */
export const fmtInt = formatCount;

export function fmtMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Pretty JSON that never throws (cycles and BigInts become a note). */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (err) {
    return `(cannot show as JSON: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/** A size in bytes as "812 B" or "3.4 KB" (links and exports, which stay small). */
export const fmtKb = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);
