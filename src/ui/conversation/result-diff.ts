/**
 * A short line diff between the result a recording saw and the one this replay got, for the
 * tool card of a diverged call: lines only the recording had, lines only this run has, and
 * the lines both share (as context). Pure, so it is tested without a browser.
 */
import { diffLines } from 'diff';

export type ResultDiffLine = { kind: 'same' | 'recorded' | 'actual'; text: string };

/** At most `maxLines` lines; `more` says how many were left out. */
export function resultDiff(recorded: string, actual: string, maxLines = 14): { lines: ResultDiffLine[]; more: number } {
  const all: ResultDiffLine[] = [];
  for (const part of diffLines(recorded, actual)) {
    const kind: ResultDiffLine['kind'] = part.removed ? 'recorded' : part.added ? 'actual' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) all.push({ kind, text });
  }
  return { lines: all.slice(0, maxLines), more: Math.max(0, all.length - maxLines) };
}
