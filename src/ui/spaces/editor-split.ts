/**
 * The Build workspace's split between the editor (above) and the terminal (below): the editor's
 * share of the column's height, in percent. Pure, so the clamping and the keyboard steps are unit
 * tested without a DOM; remembered in localStorage (`hp.editorSplit`) like the workspace itself.
 */

export const SPLIT_STORE = 'hp.editorSplit';
/** The editor gets most of the height: files and diffs are the job, the terminal a few lines. */
export const SPLIT_DEFAULT = 62;
/** Neither side is ever squeezed to nothing: at least a few lines of terminal, a file's first screen. */
export const SPLIT_MIN = 30;
export const SPLIT_MAX = 80;

export function clampSplit(percent: number): number {
  if (!Number.isFinite(percent)) return SPLIT_DEFAULT;
  return Math.round(Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, percent)));
}

/** A stored value → a split (anything unreadable is the default). */
export function parseSplit(stored: string | null): number {
  const n = stored === null ? NaN : Number(stored);
  return Number.isFinite(n) ? clampSplit(n) : SPLIT_DEFAULT;
}

/** The separator's keys (WAI-ARIA window splitter): arrows move 5 %, Home / End go to the ends. */
export function splitAfterKey(percent: number, key: string): number | null {
  switch (key) {
    case 'ArrowUp':
      return clampSplit(percent - 5);
    case 'ArrowDown':
      return clampSplit(percent + 5);
    case 'Home':
      return SPLIT_MIN;
    case 'End':
      return SPLIT_MAX;
    default:
      return null;
  }
}

/** A pointer at `y` in a column from `top` of `height` pixels → the editor's share. */
export function splitAtPointer(y: number, top: number, height: number): number {
  return height > 0 ? clampSplit(((y - top) / height) * 100) : SPLIT_DEFAULT;
}
