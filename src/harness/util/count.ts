/**
 * `12345` → `"12,345"`: what `n.toLocaleString('en-US')` prints for an integer, without ICU.
 * The first `toLocaleString` in a process loads ICU's number formatting (~20 ms here, up to ~70 on
 * a busy machine); the bash tool's description did that at import time, before the runner's first
 * request. Non-integers (and non-finite numbers) still go through `toLocaleString`.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${digits.slice(Math.max(0, end - 3), end)}${out ? `,${out}` : ''}`;
  return n < 0 ? `-${out}` : out;
}
