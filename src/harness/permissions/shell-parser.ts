/**
 * The shell-parser port: how the permission engine learns which simple commands a bash command
 * line runs. Two parsers for one command — one that judges, one that executes — is the classic
 * permission bypass (the judge sees `cat`, the executor runs `rm`), so the composition root binds
 * the executor's own parser where it can (`src/sandbox/justbash/shell-parser.ts`, just-bash's AST;
 * see `src/run/README.md`). Where none is bound, {@link lexerShellParser} (our own lexer,
 * `bash-lexer.ts`) judges, as before.
 *
 * Pure: a parser runs no command, touches no file and never throws.
 */
import { lexCommand } from './bash-lexer.ts';

/** One word of a simple command. */
export type ShellWord = {
  /** As written in the source, quotes included (what Bash rule specifiers are matched against). */
  raw: string;
  /** After quote removal (variables and substitutions left as written). */
  value: string;
  /** Contains a variable, substitution, arithmetic or brace expansion whose value we cannot know. */
  dynamic: boolean;
};

export type ShellRedirect = {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<<`, `<<`, `<<-`, `>&`, `<&` (any fd number stripped). */
  op: string;
  /** The file (unquoted) — or the fd for `>&2` / `2>&1`, or the here-doc delimiter. */
  target: string;
  /** True for a duplication like `2>&1` or `>&2`: no file is involved. */
  fdDup: boolean;
};

/** One simple command: what runs as one program (or a redirection-only command). */
export type SimpleCommand = {
  /** Assignments first (`X=1`), then the program and its arguments. */
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** The command as written (or as the parser prints it back), for messages. */
  text: string;
  /** `substitution` for a command inside `$(…)`, backticks or `<(…)` — it runs too. */
  origin: 'top' | 'substitution';
};

/**
 * `ok: false` means the parser refused the command or met a construct it does not map (a function
 * definition, arithmetic that may run a command, …): the engine asks, never allows. `commands`, when
 * present, are the simple commands it could see anyway: deny and ask rules still apply to them.
 */
export type ShellParse =
  | { ok: true; commands: SimpleCommand[] }
  | { ok: false; error: string; commands?: SimpleCommand[] };

/** The port. */
export type ShellParser = {
  /** Names the parser in tests and traces (`lexer`, `just-bash`). */
  readonly name: string;
  /** Splits a command line into the simple commands it runs (see {@link ShellParse}). Never throws. */
  parse(command: string): ShellParse;
};

/** Our own lexer: the fallback when the composition root binds no parser (e.g. under WebContainer). */
export const lexerShellParser: ShellParser = {
  name: 'lexer',
  parse(command) {
    const lexed = lexCommand(command);
    return lexed.ok ? { ok: true, commands: lexed.parts } : lexed;
  },
};
