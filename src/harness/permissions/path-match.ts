/**
 * Gitignore-style path patterns for Read/Edit/Write/Glob/Grep rules.
 *
 * - `//abs/path` is absolute; `~/x` is under the home directory ({@link HOME_DIR}, not the project);
 *   `/x`, `./x` and any pattern with a slash inside are anchored at the working directory.
 * - A pattern with no slash (`.env`, `*.pem`) matches that name at any depth below the working
 *   directory, as in .gitignore.
 * - `*` matches within one path segment, `**` across segments, `?` one character.
 * - A pattern that matches a directory covers everything below it: `Edit(src/*)` matches
 *   `src/a/b.ts` because `src/a` matches `src/*` (observed in Claude Code).
 */
import { HOME_DIR } from '../ports.ts';
import { isInside, normalizePath, resolvePath } from '../util/paths.ts';
import { compileWildcard, lit, notNewline, notSlash, one, opt, rep, seq, star, wildcardCache, type Pat } from '../util/wildcard.ts';

/**
 * A glob's segments as a pattern tree. Path rules have their own dialect (REFERENCE.md: rules are
 * "gitignore-style paths"), kept apart from the `glob` tool's: no `[…]` classes, `{a,b}` or `\`
 * escapes (literal here), and `**` stands for whole segments only.
 */
function globPattern(glob: string): Pat[] {
  const segs = glob.split('/');
  return segs.map((seg, i) => {
    const last = i === segs.length - 1;
    // `a/**/b` → a, any number of segments, b; a trailing `**` is everything below.
    if (seg === '**') return last ? opt(seq(lit('/'), star(notNewline))) : rep(seq(lit('/'), one(notSlash), star(notSlash)));
    return seq(lit('/'), ...[...seg].map((ch) => (ch === '*' ? star(notSlash) : ch === '?' ? one(notSlash) : lit(ch))));
  });
}

const compiled = wildcardCache((key: string) => {
  const [base, anywhere, body] = JSON.parse(key) as [string, boolean, string];
  return compileWildcard(
    seq(
      lit(base),
      ...(anywhere ? [rep(seq(lit('/'), one(notSlash), star(notSlash)))] : []),
      ...(body === '' ? [] : globPattern(body)),
      // Directory coverage: anything below a matched path is matched too.
      opt(seq(lit('/'), star(notNewline))),
    ),
  );
});

/**
 * Whether `absPath` (absolute, normalised) is matched by `pattern` — or lies below a directory it
 * matches. `workdir` is where relative patterns are anchored (and what `~` means).
 */
export function matchPathPattern(pattern: string, absPath: string, workdir: string): boolean {
  const path = normalizePath(absPath);
  let p = pattern.trim();
  if (p === '' ) return false;
  if (p.endsWith('/') && p.length > 1) p = p.slice(0, -1);
  let base: string;
  let anywhere = false;
  if (p.startsWith('//')) {
    base = '';
    p = p.slice(2);
  } else if (p === '~' || p.startsWith('~/')) {
    base = HOME_DIR;
    p = p.slice(2);
  } else if (p.startsWith('./')) {
    base = normalizePath(workdir);
    p = p.slice(2);
  } else if (p.startsWith('/')) {
    base = normalizePath(workdir);
    p = p.slice(1);
  } else {
    base = normalizePath(workdir);
    anywhere = !p.includes('/');
  }
  if (base === '/') base = '';
  if (base !== '' && !isInside(base, path)) return false;
  return compiled(JSON.stringify([base, anywhere, p])).test(path);
}

/**
 * A path argument from a command or tool input, made absolute; `~` and `$HOME` mean the home
 * directory ({@link HOME_DIR}), as the sandbox's shell expands them. `workdir` is unused and kept
 * for the callers' symmetry with {@link matchPathPattern}.
 */
export function resolveArgPath(arg: string, cwd: string, _workdir?: string): string {
  let a = arg;
  if (a === '~' || a === '$HOME' || a === '${HOME}') return HOME_DIR;
  if (a.startsWith('~/')) a = `${HOME_DIR}/${a.slice(2)}`;
  else if (a.startsWith('$HOME/')) a = `${HOME_DIR}/${a.slice(6)}`;
  else if (a.startsWith('${HOME}/')) a = `${HOME_DIR}/${a.slice(8)}`;
  return resolvePath(cwd, a);
}
