/**
 * Which `git` invocations only read (Claude Code lets `git status`, `git log`, `git diff`,
 * `git show` and a listing `git branch` run without a prompt). Anything we cannot vouch for —
 * other subcommands, global options before the subcommand (`-c core.pager=…` runs programs,
 * `-C dir` points elsewhere), flags that write files or run helpers — is not read-only and goes
 * to the rules and the mode like any other command.
 */

/** Flags that make a reading subcommand write a file or run a program. */
const WRITING_FLAGS = /^(--output(=|$)|-o$|--ext-diff$|--textconv$|--exec(=|$)|--open-files-in-pager)/;

/** `git branch` flags that only list (anything else — `-D x`, `-m`, `--set-upstream-to` — changes refs). */
const BRANCH_LIST_FLAGS = new Set([
  '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '-l', '--list', '--show-current', '--no-color', '--color',
  '--merged', '--no-merged', '--contains', '--no-contains', '--sort', '--format', '--points-at', '--column', '--no-column', '-i', '--ignore-case',
]);

const READING = new Set(['status', 'log', 'diff', 'show', 'branch']);

/** Whether `argv` (argv[0] === 'git') is a read-only git command. */
export function isReadOnlyGit(argv: readonly string[]): boolean {
  const sub = argv[1];
  if (sub === undefined || !READING.has(sub)) return false;
  const rest = argv.slice(2);
  if (rest.some((a) => WRITING_FLAGS.test(a))) return false;
  if (sub !== 'branch') return true;
  // `git branch NAME` creates a branch; only flag-only listings (and `--list PATTERN`) read.
  const listing = rest.includes('--list') || rest.includes('-l');
  return rest.every((a) => {
    if (!a.startsWith('-')) return listing;
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    return BRANCH_LIST_FLAGS.has(flag);
  });
}
