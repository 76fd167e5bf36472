/**
 * Regular expressions that arrive in a document (YAML tier patterns, hook matchers, rule
 * globs) are compiled with RE2JS, a pure-JS port of RE2: matching takes time linear in the
 * input, so a catastrophic pattern such as `(a+)+$` against a 50,000-character command cannot
 * freeze the tab (with the built-in backtracking `RegExp` it would run for longer than the
 * universe is old, and Stop would never be clickable again).
 *
 * The price is RE2's syntax: no backreferences (`\1`) and no lookaround (`(?=…)`, `(?<!…)`).
 * Those are exactly the features that make matching super-linear, so a pattern using them is
 * refused with an error that says so, at parse time, instead of being run.
 *
 * RE2JS is loaded on demand (`engines.ts`): before `loadDocumentEngines()` settles,
 * `compileSafeRegex` throws `EngineNotLoadedError` rather than report a pattern as invalid (a
 * deny rule that "does not compile" would never match: fail open).
 */
import { re2Engine } from './engines.ts';

/** A compiled pattern: `test` searches (like `RegExp.prototype.test`), in linear time. */
export type SafeRegex = {
  readonly source: string;
  /** Which engine runs it; always the linear one (tests check that no backtracking engine is used). */
  readonly engine: 're2';
  test(input: string): boolean;
};

export type SafeRegexResult = { ok: true; regex: SafeRegex } | { ok: false; error: string };

export type SafeRegexOptions = { ignoreCase?: boolean; dotAll?: boolean };

const cache = new Map<string, SafeRegexResult>();

/**
 * Compile `pattern` for linear-time matching, or say why it cannot be. Cached. Throws only
 * `EngineNotLoadedError` (the engine has not been loaded: a missing await, see above).
 */
export function compileSafeRegex(pattern: string, opts: SafeRegexOptions = {}): SafeRegexResult {
  const key = `${opts.ignoreCase ? 'i' : ''}${opts.dotAll ? 's' : ''}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compile(pattern, opts);
  if (cache.size > 500) cache.clear();
  cache.set(key, result);
  return result;
}

function compile(pattern: string, opts: SafeRegexOptions): SafeRegexResult {
  const RE2JS = re2Engine();
  let flags = 0;
  if (opts.ignoreCase) flags |= RE2JS.CASE_INSENSITIVE;
  if (opts.dotAll) flags |= RE2JS.DOTALL;
  try {
    const re = RE2JS.compile(pattern, flags);
    return { ok: true, regex: { source: pattern, engine: 're2', test: (input) => re.matcher(input).find() } };
  } catch (e) {
    return { ok: false, error: explain(pattern, e) };
  }
}

function explain(pattern: string, e: unknown): string {
  const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
  const unsupported = /\\[1-9]|\(\?<?[=!]/.test(pattern)
    ? ': backreferences and lookaround are not supported, because they can make matching take exponential time; rewrite the pattern without them'
    : '';
  return `"${pattern}" is not a valid regular expression (${why})${unsupported}`;
}
