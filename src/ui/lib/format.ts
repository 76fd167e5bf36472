/** Small display helpers shared by panels. */

export const fmtInt = (n: number) => n.toLocaleString('en-US');

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
