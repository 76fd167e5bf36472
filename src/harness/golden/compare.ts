/**
 * Expected against observed: a case passes when the decision, the deciding stage, the hooks'
 * verdicts, the error flag and the result text all match. A mismatch names each field, and the
 * result text gets a line diff so the change is readable.
 */
import type { GoldenObserved } from './case.ts';

export type GoldenDiff = { field: 'decision' | 'stage' | 'hooks' | 'isError' | 'content'; expected: string; actual: string };

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string };

/** A small line diff: common head and tail kept, the middle shown as removed then added. */
export function lineDiff(expected: string, actual: string): DiffLine[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return [
    ...a.slice(0, head).map((text) => ({ kind: 'same' as const, text })),
    ...a.slice(head, a.length - tail).map((text) => ({ kind: 'removed' as const, text })),
    ...b.slice(head, b.length - tail).map((text) => ({ kind: 'added' as const, text })),
    ...a.slice(a.length - tail).map((text) => ({ kind: 'same' as const, text })),
  ];
}

const hooksText = (h: GoldenObserved['hooks']) => (h.length ? h.map((x) => `${x.event}:${x.decision}`).join(', ') : '(none)');

export function compareObserved(expected: GoldenObserved, actual: GoldenObserved): GoldenDiff[] {
  const diffs: GoldenDiff[] = [];
  if (expected.decision !== actual.decision) diffs.push({ field: 'decision', expected: expected.decision, actual: actual.decision });
  if (expected.stage !== actual.stage) diffs.push({ field: 'stage', expected: expected.stage, actual: actual.stage });
  if (hooksText(expected.hooks) !== hooksText(actual.hooks)) diffs.push({ field: 'hooks', expected: hooksText(expected.hooks), actual: hooksText(actual.hooks) });
  if (expected.isError !== actual.isError) diffs.push({ field: 'isError', expected: String(expected.isError), actual: String(actual.isError) });
  if (expected.content !== actual.content) diffs.push({ field: 'content', expected: expected.content, actual: actual.content });
  return diffs;
}
