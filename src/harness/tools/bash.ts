/**
 * `bash`: run a shell command in the sandbox, streaming its output to the UI.
 */
import { z } from 'zod';
import { truncateHeadTail } from '../util/truncate.ts';
import { formatCount } from '../util/count.ts';
import { buildTool } from './tool.ts';
import { fail } from './shared.ts';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_OUTPUT_CHARS = 30_000;
/**
 * Room for the sandbox's own truncation note: when only one stream was cut, its note stays the
 * only one (and says the true size) instead of a second cut of a few dozen characters adding another.
 */
const NOTE_ROOM_CHARS = 200;

const inputSchema = z.strictObject({
  command: z.string().min(1).describe('The command to run.'),
  timeout: z
    .number()
    .int()
    .positive()
    .max(BASH_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}).`),
  description: z
    .string()
    .optional()
    .describe('What the command does, in 5–10 words, shown to the user (e.g. "List files in src").'),
});

const backgroundSchema = inputSchema.extend({
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run the command in the background and return at once with its id; read its output with bash_output, stop it with kill_shell.'),
});

export type BashInput = z.infer<typeof inputSchema> & { run_in_background?: boolean };

/**
 * Commands that delete or irreversibly overwrite data. A heuristic for the permission layer:
 * a miss only means the usual rules apply, so it errs towards flagging.
 */
const DESTRUCTIVE_PATTERNS: RegExp[] = [
  /(^|[\s;&|(`])(sudo\s+)?rm\s/, // any rm, with or without -r/-f
  /(^|[\s;&|(`])(rmdir|shred|unlink|mkfs(\.\w+)?|wipefs)\s/,
  /(^|[\s;&|(`])truncate\s/,
  /(^|[\s;&|(`])dd\s.*\bof=/,
  /\bfind\s.*\s-(delete|exec\s+rm)\b/,
  /\bgit\s+(reset\s+--hard|clean\s+-\w*f|checkout\s+--\s|checkout\s+\.|restore\s|branch\s+-D|stash\s+(drop|clear))/,
  /\bgit\s+push\s.*(--force|\s-f\b)/,
  /(^|[\s;&|(`])(chmod|chown)\s+-\w*R/,
  /(^|[^>&0-9])>\s*\/dev\/sd/,
];

export function looksDestructive(command: string): boolean {
  return DESTRUCTIVE_PATTERNS.some((re) => re.test(command));
}

const description = `Runs a shell command in the sandbox and returns its output.

Use it for things the other tools do not do: running scripts and tests, listing directories (ls), moving or copying files, searching with find. Prefer the dedicated tools where they fit: read to read a file (not cat/head/tail), edit or write to change one (not sed or echo >), grep to search contents, glob to find files by name.

- Every call starts in the working directory with a fresh shell: cd, variables and functions do not carry over to the next call. Chain steps with && (e.g. "cd src && ls") or use absolute paths.
- The sandbox may be a small emulated shell: common Unix tools (ls, cat, grep, sed, awk, find, jq, diff…) exist; node, npm and git may not. If a command is not found (exit 127), try another way.
- Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s; pass timeout (ms, at most ${BASH_MAX_TIMEOUT_MS}) for longer work. Avoid interactive commands and commands that never end (servers, watch modes).
- Output beyond ${formatCount(BASH_MAX_OUTPUT_CHARS)} characters keeps its beginning and end; narrow noisy commands (e.g. | head, | tail, grep) instead.
- Quote paths that contain spaces. Give a short description of what the command does.`;

const backgroundNote = `
- run_in_background: true starts a long command (a test suite, a build) and returns at once with its id, so you can keep working. A notification arrives before your next turn when it finishes; bash_output reads its output so far, kill_shell stops it. Do not poll with sleep.`;

/**
 * `background: true` adds Claude Code's `run_in_background` input: the command starts in the
 * run's job registry (`ctx.background`) and the call returns at once with the job's id.
 */
export function bashTool(opts: { background?: boolean } = {}) {
  return buildTool<BashInput>({
    name: 'bash',
    description: opts.background ? description + backgroundNote : description,
    inputSchema: opts.background ? backgroundSchema : inputSchema,
    maxResultChars: BASH_MAX_OUTPUT_CHARS + 1_000,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    isDestructive: (input) => looksDestructive(input.command),
    async call(input, ctx) {
      const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      if (ctx.signal.aborted) return fail('The command was not run: the run was stopped before it started.');
      if (input.run_in_background) {
        if (!ctx.background) return fail('Background commands are not available in this run: run it without run_in_background.');
        const job = ctx.background.start({ command: input.command, cwd: ctx.cwd, timeoutMs, ...(input.description ? { description: input.description } : {}) });
        return {
          content: `Command running in the background with id ${job.id}. You will get a notification when it finishes; read its output so far with bash_output (bash_id: "${job.id}") or stop it with kill_shell.`,
        };
      }
      const result = await ctx.sandbox.exec(input.command, {
        cwd: ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: (chunk) => ctx.onOutput(chunk),
        maxOutputChars: BASH_MAX_OUTPUT_CHARS,
      });

      let stderr = result.stderr.replace(/\n$/, '');
      if (result.timedOut || result.aborted) {
        // Sandboxes append their own stop notice; ours below says it with the advice.
        stderr = stderr.replace(/(^|\n)Command (timed out|was aborted)[^\n]*$/, '');
      }
      const parts: string[] = [];
      if (result.stdout !== '') parts.push(result.stdout.replace(/\n$/, ''));
      if (stderr !== '') parts.push(`[stderr]\n${stderr}`);
      const body = truncateHeadTail(parts.join('\n'), BASH_MAX_OUTPUT_CHARS + NOTE_ROOM_CHARS).text;

      if (result.timedOut) {
        const head = `Command timed out after ${timeoutMs} ms and was stopped.`;
        const hint =
          timeoutMs < BASH_MAX_TIMEOUT_MS
            ? ` If it needs longer, pass a larger timeout (at most ${BASH_MAX_TIMEOUT_MS} ms); if it never ends on its own (a server, a watch mode, a prompt for input), run something that does.`
            : ' Split the work into shorter commands.';
        return fail(`${head}${hint}${body ? `\nOutput before it stopped:\n${body}` : ''}`);
      }
      if (result.aborted) {
        return fail(`Command was aborted: the run was stopped by the user.${body ? `\nOutput before it stopped:\n${body}` : ''}`);
      }
      if (result.exitCode !== 0) {
        const note =
          result.exitCode === 127
            ? ' (command not found: this sandbox may not have it; try another tool or command)'
            : result.exitCode === 126
              ? ' (a sandbox limit was exceeded or the command could not run)'
              : '';
        // Flagged as an error (as Claude Code does) so the UI and hooks see a failed step; the
        // output follows so the model can tell why.
        return fail(`Exit code ${result.exitCode}${note}${body ? `\n${body}` : ''}`);
      }
      return { content: body === '' ? '(no output)' : body };
    },
  });
}
