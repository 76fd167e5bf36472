/**
 * Large files in the files panel. Monaco (and a plain `<pre>`) with a 20 MB or 200,000-line file
 * freezes the tab for seconds, so a file past either limit is not opened straight away: the
 * viewer says how big it is and offers a read-only paged view (one slice of the text at a time)
 * or, on request, the whole file in the editor.
 */

/** Files larger than this (bytes, from `stat`) ask first. */
export const LARGE_FILE_BYTES = 1024 * 1024;
/** Files with more lines than this ask first too (a small file of very many short lines). */
export const LARGE_FILE_LINES = 20_000;
/** Characters per page of the paged view. */
export const PAGE_CHARS = 64 * 1024;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Whether `text` has more than `max` lines; stops counting at the limit. */
export function hasMoreLinesThan(text: string, max = LARGE_FILE_LINES): boolean {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (++lines > max) return true;
  return false;
}

export type Page = { index: number; count: number; text: string; from: number; to: number; firstLine: number };

/**
 * Page `index` (clamped) of `text`. A page ends at the last newline inside its slice, when there
 * is one, so lines are not cut in two; `firstLine` is the 1-based number of its first line.
 */
export function pageOf(text: string, index: number, pageChars = PAGE_CHARS): Page {
  const starts = [0];
  // Page starts, computed once per call: for 20 MB that is ~320 indexOf calls, not a scan per char.
  while (starts[starts.length - 1]! + pageChars < text.length) {
    const s = starts[starts.length - 1]!;
    const nl = text.lastIndexOf('\n', s + pageChars - 1);
    starts.push(nl > s ? nl + 1 : s + pageChars);
  }
  const i = Math.max(0, Math.min(index, starts.length - 1));
  const from = starts[i]!;
  const to = i + 1 < starts.length ? starts[i + 1]! : text.length;
  let firstLine = 1;
  for (let p = text.indexOf('\n'); p !== -1 && p < from; p = text.indexOf('\n', p + 1)) firstLine++;
  return { index: i, count: starts.length, text: text.slice(from, to), from, to, firstLine };
}
