/**
 * Head + tail truncation: long output keeps its beginning (what the command was doing) and its
 * end (how it finished, usually the error), with a marker saying how much was cut. Used by the
 * sandboxes for command output and by the tool runner for oversized results.
 *
 * One cut, one honest note: output can pass through several caps (the sandbox per stream, the
 * bash tool over stdout + stderr, the tool runner). A text that already carries notes counts as
 * the original it stands for, so a second cut still says the true original size ("N in all"),
 * and a note is never split in two.
 */
import { formatCount } from './count.ts';

export type Truncated = { text: string; truncated: boolean; omittedChars: number };

const NOTE = /\n\n… \[([\d,]+) characters cut from the middle; ([\d,]+) in all\] …\n\n/g;

type Note = { start: number; end: number; omitted: number };

function notesIn(text: string): Note[] {
  const out: Note[] = [];
  for (const m of text.matchAll(NOTE)) {
    out.push({ start: m.index, end: m.index + m[0].length, omitted: Number(m[1]!.replace(/,/g, '')) });
  }
  return out;
}

function noteText(omitted: number, total: number): string {
  return `\n\n… [${formatCount(omitted)} characters cut from the middle; ${formatCount(total)} in all] …\n\n`;
}

/** The length of the original a (possibly already cut) text stands for. */
export function originalLength(text: string): number {
  return notesIn(text).reduce((n, x) => n - (x.end - x.start) + x.omitted, text.length);
}

export function truncateHeadTail(text: string, maxChars: number): Truncated {
  if (text.length <= maxChars) return { text, truncated: false, omittedChars: 0 };
  const notes = notesIn(text);
  const total = notes.reduce((n, x) => n - (x.end - x.start) + x.omitted, text.length);
  let headEnd = Math.floor(maxChars * 0.6);
  let tailStart = text.length - (maxChars - headEnd);
  // Never split an earlier note: move the cut to its edge.
  for (const x of notes) {
    if (x.start < headEnd && headEnd < x.end) headEnd = x.start;
    if (x.start < tailStart && tailStart < x.end) tailStart = x.end;
  }
  if (tailStart < headEnd) tailStart = headEnd;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  // What the kept parts stand for (their own notes included); the new note names the rest.
  const kept = originalLength(head) + originalLength(tail);
  const omitted = total - kept;
  return { text: `${head}${noteText(omitted, total)}${tail}`, truncated: true, omittedChars: omitted };
}
