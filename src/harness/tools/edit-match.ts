/**
 * The string work behind `edit`: counting and replacing exact occurrences (never through
 * `String.replace`, whose `$&`-style patterns would corrupt code), and finding the line that
 * comes closest when `old_string` is not found.
 */
import { splitLines } from './shared.ts';

/** Start indices of non-overlapping occurrences of `needle`. */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) return found;
    found.push(at);
    from = at + needle.length;
  }
}

/** `haystack` with the occurrences at `at` (from {@link occurrences}) replaced, literally. */
export function replaceAt(haystack: string, needle: string, replacement: string, at: number[]): string {
  let out = '';
  let last = 0;
  for (const i of at) {
    out += haystack.slice(last, i) + replacement;
    last = i + needle.length;
  }
  return out + haystack.slice(last);
}

/** 1-based line number of character index `index`. */
export function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const b = s.slice(i, i + 2);
    m.set(b, (m.get(b) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient over character bigrams: 1 identical, 0 nothing in common. Linear time. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ba = bigrams(a);
  let shared = 0;
  for (const [g, n] of bigrams(b)) shared += Math.min(n, ba.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Why `old_string` was not found, as a hint: it matches except for whitespace, or the file line
 * closest to its first line. Empty when nothing useful is close.
 */
export function notFoundHint(content: string, oldString: string): string {
  if (collapse(content).includes(collapse(oldString)) && collapse(oldString) !== '') {
    return ' The text is there but its whitespace or indentation differs: copy it exactly from the read output (without the line-number prefix).';
  }
  const firstLine = splitLines(oldString).find((l) => l.trim() !== '')?.trim();
  if (!firstLine) return '';
  const lines = splitLines(content);
  let best = { score: 0, n: 0, text: '' };
  // Bounded so a huge file cannot make the hint expensive.
  for (let i = 0; i < Math.min(lines.length, 20_000); i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.length > 1000) continue;
    const score = similarity(firstLine, line);
    if (score > best.score) best = { score, n: i + 1, text: lines[i]! };
  }
  if (best.score < 0.5) return '';
  return ` The closest line is ${best.n}: ${JSON.stringify(best.text)}.`;
}
