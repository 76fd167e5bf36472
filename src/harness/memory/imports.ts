/**
 * `@path` imports in CLAUDE.md files, found the way Claude Code finds them: an `@` at the start
 * of a line or after whitespace, followed by a path. Imports inside fenced code blocks and
 * inline code spans are not imports (so `@decorator` in a code sample, or a
 * `npm i @scope/pkg` in backticks, stays text).
 */
import { dirname, resolvePath } from '../util/paths.ts';

/** A fence opener: up to three spaces, then three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;
/** Punctuation that ends a sentence rather than a path: "see @docs/style.md." */
const TRAILING = /[.,;:!?)\]}>'"]+$/;

/** The `@` targets of `content`, in order of appearance, as written (escaped spaces undone). */
export function findImports(content: string): string[] {
  const out: string[] = [];
  let fence: { char: string; len: number } | null = null;
  for (const line of content.split(/\r?\n/)) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence.char && f[1]!.length >= fence.len && line.trim() === f[1]) fence = null;
      continue;
    }
    if (f) {
      fence = { char: f[1]![0]!, len: f[1]!.length };
      continue;
    }
    const prose = stripCodeSpans(line);
    for (const m of prose.matchAll(IMPORT)) {
      const raw = m[1]!.replace(/\\ /g, ' ').replace(TRAILING, '');
      if (looksLikePath(raw)) out.push(raw);
    }
  }
  return out;
}

/** Replaces inline code spans (`x`, ``x``) with spaces; an unclosed run of backticks stays text. */
function stripCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
}

/**
 * Whether an `@word` is meant as a path: `./x`, `~/x`, `/x`, or a name that starts like a file
 * (letters, digits, `.`, `_`, `-`). Rules out `@@`, `@#tag`, a lone `@/`.
 */
function looksLikePath(p: string): boolean {
  if (p === '' || p === '/' || p === '~' || p === '~/') return false;
  if (p.startsWith('./') || p.startsWith('../') || p.startsWith('~/') || p.startsWith('/')) return true;
  return /^[A-Za-z0-9._-]/.test(p);
}

/** Where an import points: `~/` is the project home, `/x` absolute, anything else relative to the importing file. */
export function resolveImport(target: string, importer: string, home: string): string {
  if (target.startsWith('~/')) return resolvePath(home, target.slice(2));
  return resolvePath(dirname(importer), target);
}
