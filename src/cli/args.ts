/**
 * The headless runner's command line: parsing (a typed result, never an exit from here) and the
 * `--help` text. Exit codes are defined here too, so the help and the runner cannot disagree.
 */
// The two leaf modules, not the permissions folder's entry: this file is on the runner's start-up
// path (`--help`, a bad command line), and the entry's chunk would bring zod and re2js with it
// (dist-cli/bundle-graph.json; test/unit/cli-startup-loads.test.ts).
// eslint-disable-next-line no-restricted-imports -- a leaf with no imports, kept off the folder entry on purpose
import { PERMISSION_MODES, type PermissionMode } from '../harness/permissions/types.ts';
// eslint-disable-next-line no-restricted-imports -- as above
import { splitToolList } from '../harness/permissions/tool-list.ts';

export { splitToolList };

export type OutputFormat = 'text' | 'json' | 'stream-json' | 'trace';
export type InputFormat = 'text' | 'stream-json';

export type CliArgs = {
  /** Built-in scenario ids or paths to scenario files (v0 or v1). */
  targets: string[];
  all: boolean;
  /** A prompt: over the scenario's, or the task for `--dir`. */
  prompt?: string;
  dir?: string;
  writeBack: boolean;
  format: OutputFormat;
  quiet: boolean;
  /** Text format: also allowed decisions, hooks, transitions and per-call usage on stderr. */
  verbose: boolean;
  live: boolean;
  trust: boolean;
  model?: string;
  maxTurns?: number;
  /** The permission mode, as Claude Code's `--permission-mode` (the CLI settings scope). */
  mode?: PermissionMode;
  /** Messages queued as if typed while the agent works (see `parseSteerFile`). */
  steerFile?: string;
  help: boolean;
  // Claude Code's print-mode flags (see `claude --help`).
  /** `--resume ID`: continue that saved headless session of this folder. */
  resume?: string;
  /** `--continue`: continue the most recent saved headless session of this folder. */
  continue: boolean;
  /** `--allowedTools` / `--disallowedTools`: permission rules of the CLI scope, in Claude Code's syntax. */
  allowedTools: string[];
  disallowedTools: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  inputFormat: InputFormat;
  /** `--mcp-config`: files or JSON strings with `mcpServers`, added to the folder's `.mcp.json`. */
  mcpConfigs: string[];
  maxBudgetUsd?: number;
  fallbackModel?: string;
  /** A price table JSON file over the built-in one (`src/harness/cost/prices.ts`). */
  priceTable?: string;
  /** `--no-session-persistence`: do not save this folder session to disk. */
  noSessionPersistence: boolean;
  /**
   * The context pipeline, as a scenario's `settings.context` (`harness/context/settings.ts`):
   * `--context-settings` (a JSON string or file, validated when the run starts) under the single
   * flags (`--context-window`, `--autocompact-threshold`, `--collapse-threshold`), which win.
   */
  context: ContextFlags;
};

/** The context flags as given; `settings` is the raw `--context-settings` value (JSON text or a path). */
export type ContextFlags = { windowTokens?: number; autoCompactThreshold?: number; collapseThreshold?: number; settings?: string };

/** A threshold as a fraction of the window: `0.8`, or a percentage `80%` / `80` (over 1). */
function fractionOf(v: string | null): number | null {
  if (v === null) return null;
  const pct = v.endsWith('%');
  const n = Number(pct ? v.slice(0, -1) : v);
  if (!Number.isFinite(n)) return null;
  const f = pct || n > 1 ? n / 100 : n;
  return f > 0 && f <= 1 ? f : null;
}

/** What the process exit code means (also printed by `--help`). */
export const EXIT = {
  /** Every run completed. */
  ok: 0,
  /** A run ended otherwise: model error, max turns, refusal, a hook stopped it. */
  runFailed: 1,
  /** The command line or an input file was wrong; nothing ran. */
  usage: 2,
  /** The only problem was a refusal: the model declined (the API's explanation is on stderr). */
  refusal: 3,
  /** Stopped with Ctrl-C. */
  interrupted: 130,
} as const;

export type ParsedArgs = { ok: true; args: CliArgs } | { ok: false; problem: string };

const FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json', 'trace'];

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const args: CliArgs = {
    targets: [],
    all: false,
    writeBack: false,
    format: 'text',
    quiet: false,
    verbose: false,
    live: false,
    trust: false,
    help: false,
    continue: false,
    allowedTools: [],
    disallowedTools: [],
    inputFormat: 'text',
    mcpConfigs: [],
    noSessionPersistence: false,
    context: {},
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string | null => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[i + 1];
      if (v === undefined || (v.startsWith('-') && v !== '-')) return null;
      i++;
      return v;
    };
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    switch (flag) {
      case '-h':
      case '--help':
        args.help = true;
        break;
      case '--all':
        args.all = true;
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '-v':
      case '--verbose':
        args.verbose = true;
        break;
      case '--live':
        args.live = true;
        break;
      case '--trust':
        args.trust = true;
        break;
      case '--write-back':
        args.writeBack = true;
        break;
      case '-p':
      case '--print':
      case '--prompt': {
        const v = value();
        if (v === null) return { ok: false, problem: `${flag} needs a prompt, e.g. -p "fix the failing test"` };
        args.prompt = v;
        break;
      }
      case '--dir': {
        const v = value();
        if (v === null) return { ok: false, problem: '--dir needs a folder, e.g. --dir ./my-project' };
        args.dir = v;
        break;
      }
      case '--model': {
        const v = value();
        if (v === null) return { ok: false, problem: '--model needs a model id' };
        args.model = v;
        break;
      }
      case '--max-turns': {
        const v = value();
        const n = v === null ? NaN : Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 500) return { ok: false, problem: '--max-turns needs a whole number from 1 to 500' };
        args.maxTurns = n;
        break;
      }
      case '--permission-mode': {
        const v = value();
        if (v === null || !(PERMISSION_MODES as readonly string[]).includes(v)) return { ok: false, problem: `--permission-mode takes one of ${PERMISSION_MODES.join(', ')}` };
        args.mode = v as PermissionMode;
        break;
      }
      case '--steer-file': {
        const v = value();
        if (v === null) return { ok: false, problem: '--steer-file needs a path (one message per line; `@N text` pins a line to model call N)' };
        args.steerFile = v;
        break;
      }
      case '--output-format': {
        const v = value();
        if (v === null || !FORMATS.includes(v as OutputFormat)) return { ok: false, problem: `--output-format is one of ${FORMATS.join(', ')}` };
        args.format = v as OutputFormat;
        break;
      }
      case '-r':
      case '--resume': {
        const v = value();
        if (v === null) return { ok: false, problem: `${flag} needs a session id (the session_id of an earlier run's json output)` };
        args.resume = v;
        break;
      }
      case '--no-session-persistence':
        args.noSessionPersistence = true;
        break;
      case '-c':
      case '--continue':
        args.continue = true;
        break;
      case '--allowedTools':
      case '--allowed-tools':
      case '--disallowedTools':
      case '--disallowed-tools': {
        const v = value();
        if (v === null) return { ok: false, problem: `${flag} needs a list of tools or rules, e.g. ${flag} "Bash(git log:*) Read"` };
        (flag.startsWith('--allowed') ? args.allowedTools : args.disallowedTools).push(...splitToolList(v));
        break;
      }
      case '--system-prompt':
      case '--append-system-prompt': {
        const v = value();
        if (v === null) return { ok: false, problem: `${flag} needs the text` };
        if (flag === '--system-prompt') args.systemPrompt = v;
        else args.appendSystemPrompt = v;
        break;
      }
      case '--input-format': {
        const v = value();
        if (v !== 'text' && v !== 'stream-json') return { ok: false, problem: '--input-format is one of text, stream-json' };
        args.inputFormat = v;
        break;
      }
      case '--mcp-config': {
        const v = value();
        if (v === null) return { ok: false, problem: '--mcp-config needs a JSON file or a JSON string with "mcpServers"' };
        args.mcpConfigs.push(v);
        break;
      }
      case '--max-budget-usd': {
        const v = value();
        const n = v === null ? NaN : Number(v);
        if (!Number.isFinite(n) || n <= 0) return { ok: false, problem: '--max-budget-usd needs an amount of dollars above 0, e.g. --max-budget-usd 0.50' };
        args.maxBudgetUsd = n;
        break;
      }
      case '--fallback-model': {
        const v = value();
        if (v === null) return { ok: false, problem: '--fallback-model needs a model id' };
        args.fallbackModel = v;
        break;
      }
      case '--price-table': {
        const v = value();
        if (v === null) return { ok: false, problem: '--price-table needs a JSON file (see --help)' };
        args.priceTable = v;
        break;
      }
      case '--context-window': {
        const v = value();
        const n = v === null ? NaN : Number(v.replace(/[_,]/g, '').replace(/k$/i, '000'));
        if (!Number.isInteger(n) || n < 1_000 || n > 10_000_000) return { ok: false, problem: '--context-window needs the window in tokens, a whole number from 1000 up, e.g. --context-window 100000 (or 100k)' };
        args.context.windowTokens = n;
        break;
      }
      case '--autocompact-threshold':
      case '--collapse-threshold': {
        const f = fractionOf(value());
        if (f === null) return { ok: false, problem: `${flag} needs a share of the context window above 0 and at most 1, e.g. ${flag} 0.8 (or 80%)` };
        if (flag === '--autocompact-threshold') args.context.autoCompactThreshold = f;
        else args.context.collapseThreshold = f;
        break;
      }
      case '--context-settings': {
        const v = value();
        if (v === null) return { ok: false, problem: '--context-settings needs a JSON object or a JSON file, e.g. --context-settings \'{"microcompact":{"keepRecent":4}}\'' };
        args.context.settings = v;
        break;
      }
      default:
        if (a.startsWith('-')) return { ok: false, problem: `unknown option ${a}` };
        args.targets.push(a);
    }
  }
  if (args.help) return { ok: true, args };
  if (args.inputFormat === 'stream-json') {
    // As Claude Code: messages on stdin need the stream-json output to answer each one.
    if (args.format !== 'stream-json') return { ok: false, problem: '--input-format stream-json needs --output-format stream-json' };
    if (args.prompt !== undefined) return { ok: false, problem: '--input-format stream-json reads the prompts from stdin; leave out -p' };
    if (args.targets.length === 0 && !args.all && !args.dir) args.dir = '.';
  }
  if (args.resume !== undefined && args.continue) return { ok: false, problem: '--resume and --continue both pick a session: use one' };
  if ((args.resume !== undefined || args.continue) && (args.targets.length > 0 || args.all)) return { ok: false, problem: `${args.continue ? '--continue' : '--resume'} continues a folder session (-p "…" on --dir PATH or the current folder), not a scenario` };
  // `-p "…"` alone works on the current folder, as `claude -p` does (read only, unless --write-back).
  if (args.prompt !== undefined && !args.dir && !args.all && args.targets.length === 0) args.dir = '.';
  if (args.writeBack && !args.dir) return { ok: false, problem: '--write-back only applies with --dir' };
  if (args.dir && (args.targets.length > 0 || args.all)) return { ok: false, problem: '--dir runs a prompt on a folder; it does not take a scenario as well' };
  if (args.dir && !args.prompt && args.inputFormat !== 'stream-json') return { ok: false, problem: '--dir needs a task: add -p "what to do"' };
  if (!args.dir && !args.all && args.targets.length === 0) return { ok: false, problem: 'name a scenario, pass --all, or give --dir PATH -p "prompt"' };
  if (args.prompt !== undefined && args.targets.length > 1) return { ok: false, problem: '-p overrides the prompt of one scenario; name only one' };
  return { ok: true, args };
}

export function helpText(builtinIds: readonly string[]): string {
  return `harness-playground — run the agent harness headless (like \`claude -p\`)

Usage
  harness-playground --dir PATH -p "PROMPT" [--write-back]   work on a folder from disk (live model)
  harness-playground -p "PROMPT"                              the same on the current folder
  harness-playground SCENARIO [-p "PROMPT"]                   a built-in scenario id or a .json file
  harness-playground --all [--quiet]                          every built-in scenario (a self-test)
  harness-playground golden SCENARIO [--trust]                re-run its golden cases (settings.golden):
                                                              a table, a diff per failure; exit 1 if one fails

Options
  -p, --print PROMPT        the task; with a scenario it replaces the scenario's first prompt
  --dir PATH                the folder's files become the sandbox (node_modules and files over
                            1 MB are skipped, with a note); .claude/settings.json,
                            .claude/settings.local.json and CLAUDE.md are read from it. Its .git
                            comes along (git log/status/diff work); over 20 MB (or a .git file),
                            the sandbox starts a fresh repository from the files instead (said on
                            stderr). Nothing under .git is written back
  --write-back              after the run, write changed, new and deleted files back to PATH
                            (off by default: the folder is never touched without it)
  --output-format FORMAT    text (default): the answer on stdout; on stderr one short line per
                            tool call, denial and error
                            json: one result object (Claude Code's: subtype, is_error, result,
                            session_id, total_cost_usd, usage, modelUsage, …; then ours: reason,
                            cost by agent and by tool call)
                            stream-json: Claude Code's messages (system init, assistant, user),
                            one JSON line each, then the result
                            trace: every trace event of ours as one JSON line, then the result
  -v, --verbose             text: also allowed decisions, hooks, transitions, usage and cost
                            per call, and a /cost-like summary at the end
  --input-format FORMAT     text (default), or stream-json: user messages on stdin, one JSON line
                            each ({"type":"user","message":{"role":"user","content":…}}), each
                            answered in turn (needs --output-format stream-json)
  -r, --resume ID           continue a saved session of this folder (its session_id)
  -c, --continue            continue this folder's most recent session
  --no-session-persistence  do not save this folder run as a session
  --allowedTools LIST       allow rules of the CLI scope, Claude Code syntax, comma or space
                            separated: "Bash(git log:*) Read" (also --allowed-tools)
  --disallowedTools LIST    deny rules of the CLI scope; a bare name hides the tool
  --system-prompt TEXT      replace the system prompt
  --append-system-prompt T  add to the end of the system prompt
  --mcp-config FILE|JSON    your own MCP servers ({"mcpServers": …}, no approval) beside the
                            folder's .mcp.json; stdio servers start as processes in the folder,
                            ended with the run (repeatable)
  --max-budget-usd AMOUNT   stop before the model call that would cross AMOUNT dollars (the next
                            call's input tokens at the uncached price are its estimate)
  --fallback-model ID       when the model stays overloaded (529) after its retries or is not
                            found (404), switch to ID and go on
  --price-table FILE        prices per model over the built-in table ({date, source, fallback,
                            models: {ID or family: {input, cacheWrite5m, cacheWrite1h,
                            cacheRead, output}}}, dollars per million tokens)
  --context-window TOKENS   the model's context window the compaction layers work against
                            (default 200000; "100k" works too)
  --autocompact-threshold F auto-compact (a written summary) when the request reaches F of the
                            window: 0.85 by default; 0.8 or 80% both work
  --collapse-threshold F    collapse older exchanges at F of the window (default 0.7)
  --context-settings JSON|FILE
                            any of the context pipeline's settings, as a scenario's
                            settings.context: {"windowTokens", "autoCompactThreshold", "budget",
                            "snip", "microcompact", "collapse", "autoCompact", "cache"}; the three
                            flags above win over it. A bad field is a usage error naming it
  --live                    use the Anthropic API even for a scripted scenario
  --model ID                model id for a live run (default claude-sonnet-5-5)
  --max-turns N             stop after N model calls
  --permission-mode MODE    ${PERMISSION_MODES.join(', ')}; bypassPermissions is refused when a
                            settings file says disableBypassPermissionsMode: "disable"
  --steer-file PATH         queue messages as if typed while the agent works: one per line,
                            each delivered at the next safe point ("@N text" pins a line to
                            model call N; "#" lines are comments)
  --trust                   let the scenario's or folder's hooks, allow rules and modes apply
                            (untrusted: deny and ask rules apply; anything that asks is denied)
  --quiet                   one line per scenario (with --all)
  -h, --help                this text

Environment
  ANTHROPIC_API_KEY         needed for live runs (--dir, --live, scenarios with a live model)
  ANTHROPIC_BASE_URL        another Messages-compatible endpoint (a proxy, a local fake)
  HARNESS_PLAYGROUND_CONFIG_DIR  where sessions are saved (default ~/.harness-playground):
                            projects/<folder path with / as ->/<session id>.jsonl

Exit codes
  ${EXIT.ok}    every run completed
  ${EXIT.runFailed}    a run ended otherwise (model error, max turns, budget, stopped by a hook)
  ${EXIT.usage}    bad command line or input file; nothing ran
  ${EXIT.refusal}    the model declined (refusal); the API's explanation is on stderr
  ${EXIT.interrupted}  stopped with Ctrl-C

Built-in scenarios
  ${builtinIds.join(', ')}
`;
}
