/**
 * JSON nesting bounded for storage. `JSON.stringify` (and the structured clone IndexedDB uses)
 * recurse, and run out of stack at a few thousand levels: a model that sends a tool input nested
 * 10,000 deep would otherwise make every later write of the session fail. Anything nested deeper
 * than the cap is replaced by a note saying what was there, so the session keeps saving and the
 * log says plainly that a value was cut.
 */

/** Deepest nesting kept in a stored log entry; real events stay far below it. */
export const MAX_STORED_DEPTH = 64;

/** What replaces a value nested too deep. */
export function depthNote(max: number): string {
  return `[nested deeper than ${max} levels: replaced when the session was saved]`;
}

/** Whether `value` nests deeper than `max` (objects and arrays count one level each). Never recurses past `max`. */
export function deeperThan(value: unknown, max: number): boolean {
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (walk(x, depth + 1)) return true;
    return false;
  };
  return walk(value, 0);
}

/** A copy of `value` with everything below depth `max` replaced by a note (the value itself when it fits). */
export function boundDepth<T>(value: T, max = MAX_STORED_DEPTH): T {
  if (!deeperThan(value, max)) return value;
  const note = depthNote(max);
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (depth >= max) return note;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
