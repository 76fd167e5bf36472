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

/**
 * Where `oldString` occurs in `content`, as `edit` matches it: models write "\n", so in a CRLF
 * file with no literal match both strings take the file's "\r\n" line endings.
 */
export function matchEdit(content: string, oldString: string, newString: string): { at: number[]; oldString: string; newString: string } {
  const at = occurrences(content, oldString);
  if (at.length === 0 && content.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    const crlfOld = oldString.replace(/\n/g, '\r\n');
    return { at: occurrences(content, crlfOld), oldString: crlfOld, newString: newString.replace(/\r?\n/g, '\r\n') };
  }
  return { at, oldString, newString };
}

/**
 * `content` after an `edit` with this input, exactly as the tool writes it; null when the tool
 * would refuse it (not found, or several occurrences without `replace_all`). The diff view replays
 * a turn's edits with it to show each call's own before and after.
 */
export function applyEdit(content: string, input: { old_string: string; new_string: string; replace_all?: boolean }): string | null {
  if (input.old_string === '' || input.old_string === input.new_string) return null;
  const m = matchEdit(content, input.old_string, input.new_string);
  if (m.at.length === 0 || (m.at.length > 1 && !input.replace_all)) return null;
  return replaceAt(content, m.oldString, m.newString, m.at);
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
