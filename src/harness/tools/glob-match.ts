/**
 * Glob patterns compiled to regular expressions, for `glob` and for `grep`'s file filter.
 * Our own small matcher (no dependency, same in Node and the browser):
 * `*` any run of characters but `/`; `?` one such character; `**` as a whole path segment any
 * number of directories (including none); `[abc]`, `[a-z]`, `[!abc]`; `{a,b}` alternatives,
 * nestable; `\x` a literal x. Dot-files match like any other file.
 */

const REGEX_SPECIAL = /[.+^$()|{}[\]\\*?]/;

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) || c === '/' ? `\\${c}` : c;
}

/** True when `s` has any glob metacharacter (so it is not a plain path). */
export function hasGlobChars(s: string): boolean {
  return /[*?[\]{}]/.test(s);
}

/** Regular-expression source for a glob, anchored by the caller. */
function globSource(pattern: string): string {
  let i = 0;
  const p = pattern;

  function classAt(start: number): { source: string; end: number } | null {
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
    const body = p.slice(bodyStart, j).replace(/[\\[\]^]/g, (c) => `\\${c}`);
    // A class never matches the path separator.
    return { source: negate ? `[^/${body}]` : `[${body}]`, end: j };
  }

  function parse(inBrace: boolean): string {
    let out = '';
    while (i < p.length) {
      const c = p[i]!;
      if (inBrace && (c === ',' || c === '}')) return out;
      if (c === '\\' && i + 1 < p.length) {
        out += escapeChar(p[i + 1]!);
        i += 2;
      } else if (c === '*') {
        let j = i;
        while (p[j] === '*') j++;
        const segmentStart = i === 0 || p[i - 1] === '/';
        const next = p[j];
        const segmentEnd = next === undefined || next === '/' || (inBrace && (next === ',' || next === '}'));
        if (j - i >= 2 && segmentStart && segmentEnd) {
          if (next === '/') {
            out += '(?:.*/)?';
            i = j + 1;
          } else {
            out += '.*';
            i = j;
          }
        } else {
          out += '[^/]*';
          i = j;
        }
      } else if (c === '?') {
        out += '[^/]';
        i++;
      } else if (c === '[') {
        const cls = classAt(i);
        if (cls) {
          out += cls.source;
          i = cls.end + 1;
        } else {
          out += '\\[';
          i++;
        }
      } else if (c === '{') {
        const save = i;
        i++;
        const alternatives: string[] = [];
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
          out += `(?:${alternatives.join('|')})`;
        } else {
          // `{a}` or an unclosed brace is literal text, as in bash.
          i = save + 1;
          out += '\\{';
        }
      } else {
        out += escapeChar(c);
        i++;
      }
    }
    return out;
  }

  return parse(false);
}

/** A matcher for whole relative paths (`src/a.ts`), `/`-separated. */
export function compileGlob(pattern: string, opts: { ignoreCase?: boolean } = {}): (path: string) => boolean {
  const re = new RegExp(`^${globSource(pattern)}$`, opts.ignoreCase ? 'i' : '');
  return (path) => re.test(path);
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
