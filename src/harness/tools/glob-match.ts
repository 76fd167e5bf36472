/**
 * Glob patterns for `glob` and for `grep`'s file filter, matched by the shared linear-time
 * matcher (`util/wildcard.ts`; patterns arrive in documents, so no backtracking RegExp):
 * `*` any run of characters but `/`; `?` one such character; `**` as a whole path segment any
 * number of directories (including none); `[abc]`, `[a-z]`, `[!abc]`; `{a,b}` alternatives,
 * nestable; `\x` a literal x. Dot-files match like any other file.
 */
import { alt, compileWildcard, lit, lower, notNewline, notSlash, one, opt, seq, star, upper, wildcardCache, type CharTest, type Pat } from '../util/wildcard.ts';

/** True when `s` has any glob metacharacter (so it is not a plain path). */
export function hasGlobChars(s: string): boolean {
  return /[*?[\]{}]/.test(s);
}

/** `[…]`'s body (between the brackets, after a `!`/`^`) as a test on one character. */
function classTest(body: string, negate: boolean, ignoreCase: boolean): CharTest {
  const ranges: [number, number][] = [];
  for (let j = 0; j < body.length; j++) {
    const from = body.charCodeAt(j);
    if (body[j + 1] === '-' && j + 2 < body.length) {
      ranges.push([from, body.charCodeAt(j + 2)]);
      j += 2;
    } else ranges.push([from, from]);
  }
  const inSet = (c: number) => ranges.some(([a, b]) => c >= a && c <= b);
  const has = ignoreCase ? (c: number) => inSet(c) || inSet(lower(c)) || inSet(upper(c)) : inSet;
  // A negated class never matches the path separator.
  return negate ? (c) => c !== 47 && !has(c) : has;
}

/** The pattern tree for a glob. */
function globPattern(pattern: string, ignoreCase: boolean): Pat {
  let i = 0;
  const p = pattern;

  function classAt(start: number): { test: CharTest; end: number } | null {
    let j = start + 1;
    let negate = false;
    if (p[j] === '!' || p[j] === '^') {
      negate = true;
      j++;
    }
    const bodyStart = j;
    if (p[j] === ']') j++; // a leading `]` is literal
    while (j < p.length && p[j] !== ']') j++;
    if (j >= p.length) return null;
    return { test: classTest(p.slice(bodyStart, j), negate, ignoreCase), end: j };
  }

  function parse(inBrace: boolean): Pat {
    const out: Pat[] = [];
    while (i < p.length) {
      const c = p[i]!;
      if (inBrace && (c === ',' || c === '}')) break;
      if (c === '\\' && i + 1 < p.length) {
        out.push(lit(p[i + 1]!));
        i += 2;
      } else if (c === '*') {
        let j = i;
        while (p[j] === '*') j++;
        const segmentStart = i === 0 || p[i - 1] === '/';
        const next = p[j];
        const segmentEnd = next === undefined || next === '/' || (inBrace && (next === ',' || next === '}'));
        if (j - i >= 2 && segmentStart && segmentEnd) {
          if (next === '/') {
            // `**/`: any number of directories, including none.
            out.push(opt(seq(star(notNewline), lit('/'))));
            i = j + 1;
          } else {
            out.push(star(notNewline));
            i = j;
          }
        } else {
          out.push(star(notSlash));
          i = j;
        }
      } else if (c === '?') {
        out.push(one(notSlash));
        i++;
      } else if (c === '[') {
        const cls = classAt(i);
        if (cls) {
          out.push(one(cls.test));
          i = cls.end + 1;
        } else {
          out.push(lit('['));
          i++;
        }
      } else if (c === '{') {
        const save = i;
        i++;
        const alternatives: Pat[] = [];
        let closed = false;
        while (i < p.length) {
          alternatives.push(parse(true));
          if (p[i] === ',') i++;
          else if (p[i] === '}') {
            i++;
            closed = true;
            break;
          }
        }
        if (closed && alternatives.length > 1) {
          out.push(alt(alternatives));
        } else {
          // `{a}` or an unclosed brace is literal text, as in bash.
          i = save + 1;
          out.push(lit('{'));
        }
      } else {
        out.push(lit(c));
        i++;
      }
    }
    return seq(...out);
  }

  return parse(false);
}

const compiled = wildcardCache((key: string) => compileWildcard(globPattern(key.slice(1), key[0] === 'i'), { ignoreCase: key[0] === 'i' }));

/** A matcher for whole relative paths (`src/a.ts`), `/`-separated. */
export function compileGlob(pattern: string, opts: { ignoreCase?: boolean } = {}): (path: string) => boolean {
  const w = compiled(`${opts.ignoreCase ? 'i' : '-'}${pattern}`);
  return (path) => w.test(path);
}

/**
 * Splits an absolute glob into the directory to walk and the pattern relative to it:
 * `/home/project/src/**\/*.ts` → `{ base: '/home/project/src', pattern: '**\/*.ts' }`.
 */
export function splitGlobBase(pattern: string): { base: string; pattern: string } {
  const parts = pattern.split('/');
  const firstGlob = parts.findIndex((part) => hasGlobChars(part));
  if (firstGlob === -1) {
    // No metacharacters: the pattern names one path; walk its parent.
    const name = parts.pop() ?? '';
    return { base: parts.join('/') || '/', pattern: name };
  }
  return { base: parts.slice(0, firstGlob).join('/') || '/', pattern: parts.slice(firstGlob).join('/') };
}

/**
 * The directory a glob searches, as written: an absolute pattern carries its own (`/etc/**` searches
 * /etc). Here rather than in glob.ts so the permission stages can use it without the tool's schema.
 */
export function globSearchRoot(input: { pattern: string; path?: string | undefined }): string {
  return input.pattern.startsWith('/') ? splitGlobBase(input.pattern).base : (input.path ?? '.');
}
