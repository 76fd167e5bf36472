/**
 * What a bash command does, as far as permissions care: its simple commands (each must pass on
 * its own), with wrappers looked through, the files each reads and writes, and the Bash rule
 * specifier matching Claude Code uses.
 */
import { lexCommand, type RawPart, type Word } from './bash-lexer.ts';
import { lexerShellParser, type ShellParser } from './shell-parser.ts';
import { HOME_DIR } from '../ports.ts';
import { isReadOnlyGit } from './git-read-only.ts';
import { resolveArgPath } from './path-match.ts';
import { isInside } from '../util/paths.ts';
import { anyChar, compileWildcard, lit, opt, seq, star, wildcardCache } from '../util/wildcard.ts';

export type CommandPart = {
  /** The command matched against Bash rules: the words after wrappers, as written, space-joined. */
  command: string;
  /** The same words unquoted. `argv[0]` is the program. */
  argv: string[];
  /** Which words were dynamic (variables, substitutions). */
  dynamic: boolean[];
  /** The part as written, for messages. */
  text: string;
  origin: 'top' | 'substitution' | 'shell-c';
  /** Absolute paths written by `>`, `>>`, `&>` … (not /dev/null, not fd duplications). */
  redirectTargets: string[];
  /** Absolute paths this part reads (arguments of file readers, `<` redirections). */
  readPaths: string[];
  /** Absolute paths this part creates, changes or deletes through its arguments (rm, mv, tee …). */
  writePaths: string[];
  /** Set when the part runs a command hidden in a string (`bash -c '…'`, `eval`). */
  hiddenShell?: string;
  /** Wrappers that were stripped (`timeout 5`, `nice`, `X=1`, `xargs -n1` …), for display. */
  stripped: string[];
};

/** `ok: false`: ask. `parts` on a failure are what the parser saw anyway (deny and ask rules apply to them). */
export type CommandAnalysis = { ok: true; parts: CommandPart[] } | { ok: false; error: string; parts?: CommandPart[] };

/** Built-in commands that only read: they pass without a prompt when every part is one of them. */
export const READ_ONLY_COMMANDS = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'find', 'pwd', 'echo', 'printf', 'tree', 'stat', 'file', 'which',
  'sort', 'uniq', 'cut', 'diff', 'du', 'df', 'date', 'whoami', 'basename', 'dirname', 'realpath', 'jq', 'true', 'false',
  'cd', 'git',
]);

/** Commands whose path arguments are files they read (for `Read(...)` rules). */
const READERS = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'sort', 'uniq', 'cut', 'diff', 'jq', 'nl',
  'tac', 'od', 'xxd', 'hexdump', 'strings', 'base64', 'md5sum', 'sha1sum', 'sha256sum', 'stat', 'file', 'awk', 'sed',
  'source', '.', 'cp', 'column', 'fold', 'paste', 'comm', 'cmp',
]);

/**
 * Commands whose path arguments they list, enter or inspect without reading contents: their
 * paths count as reads for the working-directory boundary (`ls ../..`, `cd /etc`) and for
 * `Read(...)` deny rules (`ls secrets/`).
 */
const LISTERS = new Set(['ls', 'find', 'tree', 'du', 'cd', 'realpath', 'readlink', 'git']);

/** Readers whose first non-flag argument is a pattern, not a file. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg']);

/** Commands whose path arguments they create, change or delete. */
const WRITERS = new Set(['rm', 'rmdir', 'mkdir', 'touch', 'cp', 'mv', 'tee', 'ln', 'chmod', 'chown', 'truncate', 'install']);

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);

/** Keywords that start or end a compound command; the command is what follows them. */
const LEADING_KEYWORDS = new Set(['!', '{', '}', 'then', 'do', 'else', 'elif', 'if', 'while', 'until']);
const NO_COMMAND_KEYWORDS = new Set(['fi', 'done', 'esac', 'for', 'case', 'select', 'function', 'in']);

const NULL_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

type Stripped = { words: Word[]; stripped: string[] };

/** Removes wrappers that only change how a command runs, repeatedly (`nohup timeout 5 X=1 cmd`). */
export function stripWrappers(input: Word[]): Stripped {
  let words = input;
  const stripped: string[] = [];
  const take = (n: number) => {
    stripped.push(words.slice(0, n).map((w) => w.raw).join(' '));
    words = words.slice(n);
  };
  for (;;) {
    const w0 = words[0];
    if (!w0) break;
    const v = w0.value;
    if (ASSIGNMENT.test(w0.raw)) {
      take(1);
      continue;
    }
    if (LEADING_KEYWORDS.has(w0.raw)) {
      take(1);
      continue;
    }
    if (v === 'nohup') {
      take(1);
      continue;
    }
    if (v === 'time') {
      take(words[1]?.value === '-p' ? 2 : 1);
      continue;
    }
    if (v === 'nice') {
      const a = words[1]?.value;
      if (a === '-n' || a === '--adjustment') take(3);
      else if (a !== undefined && (/^-n?-?\d+$/.test(a) || a.startsWith('--adjustment='))) take(2);
      else take(1);
      continue;
    }
    if (v === 'timeout') {
      let n = 1;
      while (words[n]?.value.startsWith('-')) {
        const opt = words[n]!.value;
        n += opt === '-s' || opt === '-k' || opt === '--signal' || opt === '--kill-after' ? 2 : 1;
      }
      if (words[n] && /^\d+(\.\d+)?[smhd]?$/.test(words[n]!.value)) n++;
      take(n);
      continue;
    }
    if (v === 'xargs') {
      let n = 1;
      const withArg = new Set(['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-lines']);
      while (words[n]?.value.startsWith('-')) {
        const opt = words[n]!.value;
        n += withArg.has(opt) ? 2 : 1;
      }
      take(n);
      // xargs with no command runs echo.
      if (words.length === 0) words = [{ raw: 'echo', value: 'echo', dynamic: false }];
      continue;
    }
    break;
  }
  return { words, stripped };
}

function nonFlagArgs(argv: string[], dynamic: boolean[]): { value: string; dynamic: boolean }[] {
  const out: { value: string; dynamic: boolean }[] = [];
  let afterDashDash = false;
  argv.slice(1).forEach((a, i) => {
    if (!afterDashDash && a === '--') {
      afterDashDash = true;
      return;
    }
    if (!afterDashDash && a.startsWith('-') && a !== '-') return;
    out.push({ value: a, dynamic: dynamic[i + 1] ?? false });
  });
  return out;
}

function analyzeRaw(raw: RawPart, cwd: string, workdir: string, origin: CommandPart['origin']): CommandPart | null {
  const { words, stripped } = stripWrappers(raw.words);
  if (words.length > 0 && NO_COMMAND_KEYWORDS.has(words[0]!.raw)) return null;
  if (words.length === 0 && raw.redirects.length === 0) return null;
  const argv = words.map((w) => w.value);
  const dynamic = words.map((w) => w.dynamic);
  const resolve = (p: string) => resolveArgPath(p, cwd, workdir);

  const redirectTargets: string[] = [];
  const readPaths: string[] = [];
  for (const r of raw.redirects) {
    if (r.fdDup || r.op === '<<' || r.op === '<<-' || r.op === '<<<') continue;
    const abs = resolve(r.target);
    if (r.op === '<') readPaths.push(abs);
    else if (!NULL_DEVICES.has(abs)) redirectTargets.push(abs);
  }
  const prog = argv[0] ?? '';
  const args = nonFlagArgs(argv, dynamic);
  if (READERS.has(prog)) for (const a of PATTERN_FIRST.has(prog) ? args.slice(1) : args) readPaths.push(resolve(a.value));
  // git's first word is its subcommand; later words may be revisions, which resolve inside the workdir harmlessly.
  if (LISTERS.has(prog)) for (const a of prog === 'git' ? args.slice(1) : args) readPaths.push(resolve(a.value));
  const writePaths: string[] = [];
  if (WRITERS.has(prog)) for (const a of args) writePaths.push(resolve(a.value));
  if (prog === 'sed' && argv.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place')) {
    for (const a of args.slice(1)) writePaths.push(resolve(a.value));
  }
  for (const a of argv) if (prog === 'dd' && a.startsWith('of=')) writePaths.push(resolve(a.slice(3)));

  let hiddenShell: string | undefined;
  if (SHELLS.has(prog)) {
    const ci = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
    if (ci !== -1) hiddenShell = argv[ci + 1] ?? '';
  } else if (prog === 'eval') {
    hiddenShell = argv.slice(1).join(' ');
  }
  return {
    command: words.map((w) => w.raw).join(' '),
    argv,
    dynamic,
    text: raw.text,
    origin,
    redirectTargets,
    readPaths,
    writePaths,
    ...(hiddenShell !== undefined ? { hiddenShell } : {}),
    stripped,
  };
}

/**
 * Splits (with `parser`, by default our lexer) and analyses a command. Parts of a hidden shell
 * (`bash -c '…'`) are analysed too and follow their wrapper, with origin `shell-c`. `cd DIR`
 * changes where later top-level parts' relative paths resolve.
 */
export function analyzeCommand(command: string, cwd: string, workdir: string, parser: ShellParser = lexerShellParser, depth = 0): CommandAnalysis {
  const parsed = parser.parse(command);
  const parts: CommandPart[] = [];
  let here = cwd;
  for (const raw of parsed.commands ?? []) {
    const part = analyzeRaw(raw, raw.origin === 'top' ? here : cwd, workdir, raw.origin);
    if (!part) continue;
    parts.push(part);
    if (raw.origin === 'top' && part.argv[0] === 'cd' && part.argv[1] !== undefined && !part.dynamic[1]) {
      here = resolveArgPath(part.argv[1], here, workdir);
    } else if (raw.origin === 'top' && part.argv[0] === 'cd' && part.argv.length === 1) {
      here = HOME_DIR; // a bare cd goes home
    }
    if (part.hiddenShell !== undefined && depth < 3) {
      const inner = analyzeCommand(part.hiddenShell, here, workdir, parser, depth + 1);
      for (const p of inner.parts ?? []) parts.push({ ...p, origin: 'shell-c' });
      if (!inner.ok) return { ok: false, error: `in the command given to ${part.argv[0]}: ${inner.error}`, parts };
    }
  }
  if (!parsed.ok) return { ok: false, error: parsed.error, parts };
  return { ok: true, parts };
}

/** Whether a part is one of the built-in read-only commands and writes no file. */
export function isReadOnlyPart(part: CommandPart): boolean {
  return isReadOnlyProgram(part) && part.redirectTargets.length === 0;
}

/** Whether the part's program is a built-in read-only command used read-only (redirects aside). */
export function isReadOnlyProgram(part: CommandPart): boolean {
  const prog = part.argv[0];
  if (prog === undefined) return true;
  if (!READ_ONLY_COMMANDS.has(prog) || part.hiddenShell !== undefined) return false;
  if (prog === 'find') return !part.argv.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a));
  if (prog === 'sort') return !part.argv.some((a) => a === '-o' || a.startsWith('--output') || /^-[a-zA-Z]*o/.test(a));
  if (prog === 'tree') return !part.argv.some((a) => a === '-o');
  if (prog === 'git') return isReadOnlyGit(part.argv);
  return true;
}

/**
 * Claude Code's Bash specifier matching:
 * - `prefix:*` (legacy): the prefix as a whole word (`npm run:*` matches `npm run build`) or bare;
 * - with `*`: `*` matches any text, and a trailing ` *` also matches the bare command
 *   (`ls *` matches `ls`, not `lsof`);
 * - otherwise exact. A deny of `Bash(npm publish)` does NOT stop `npm publish --tag beta`
 *   (observed in Claude Code); write `Bash(npm publish *)` to cover the arguments.
 */
export function matchBashSpecifier(spec: string, command: string): boolean {
  // A rule written as a compound command stands for one rule per part, as Claude Code saves
  // them: `Bash(npm test && npm run lint)` allows each part, never the pair as one string —
  // a part is judged alone, so the whole never matches anyway.
  const specParts = compoundSpecParts(spec);
  if (specParts) return specParts.some((p) => matchSimpleSpecifier(p, command));
  return matchSimpleSpecifier(spec, command);
}

const specPartsCache = new Map<string, string[] | null>();

/** The parts of a specifier written as a compound command (`a && b`), or null for a simple one. */
export function compoundSpecParts(spec: string): string[] | null {
  let parts = specPartsCache.get(spec);
  if (parts === undefined) {
    const lexed = /[;&|\n]/.test(spec) ? lexCommand(spec) : null;
    parts = lexed?.ok && lexed.parts.length > 1 ? lexed.parts.map((p) => p.words.map((w) => w.raw).join(' ')) : null;
    specPartsCache.set(spec, parts);
  }
  return parts;
}

function matchSimpleSpecifier(spec: string, command: string): boolean {
  const cmd = command.trim().replace(/\s+/g, ' ');
  const s = spec.trim().replace(/\s+/g, ' ');
  if (s === '*') return true;
  if (s.endsWith(':*')) {
    const prefix = s.slice(0, -2);
    return cmd === prefix || cmd.startsWith(prefix + ' ');
  }
  if (!s.includes('*')) return cmd === s;
  return specifierMatcher(s).test(cmd);
}

/**
 * Bash specifiers are their own dialect, not a path glob (REFERENCE.md: "`*` matches any text;
 * trailing ` *` also matches the bare command"): `*` crosses `/` and newlines, and `?`, `[…]` and
 * `{…}` are literal. Compiled once per rule by the shared linear-time matcher — a rule like
 * `Bash(a*a*a*a*…)` from a document cannot make matching slow.
 */
const specifierMatcher = wildcardCache((s: string) => {
  const trailing = s.endsWith(' *');
  const body = trailing ? s.slice(0, -2) : s;
  const chunks = body.split('*').flatMap((chunk, i) => (i === 0 ? [lit(chunk)] : [star(anyChar), lit(chunk)]));
  return compileWildcard(seq(...chunks, ...(trailing ? [opt(seq(lit(' '), star(anyChar)))] : [])));
});

/** Whether `path` is inside the working directory. */
export function insideWorkdir(path: string, workdir: string): boolean {
  return isInside(workdir, path);
}
