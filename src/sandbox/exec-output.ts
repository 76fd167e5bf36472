/**
 * The last step every sandbox shares: cut each stream to head + tail, and hand the text to
 * `onOutput` when the backend could not stream it while the command ran.
 */
import type { ExecOptions, ExecResult } from '../harness/ports.ts';
import { truncateHeadTail } from '../harness/util/index.ts';

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

export type RawOutcome = {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut?: boolean;
  aborted?: boolean;
};

/**
 * Builds the {@link ExecResult}. With `deliver` set, the (already truncated) streams are passed
 * to `opts.onOutput` as one chunk each, stdout first.
 */
export function finishExec(raw: RawOutcome, opts: ExecOptions, deliver: boolean): ExecResult {
  const max = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const out = truncateHeadTail(raw.stdout, max);
  const err = truncateHeadTail(raw.stderr, max);
  if (deliver && opts.onOutput) {
    try {
      if (out.text) opts.onOutput({ stream: 'stdout', text: out.text });
      if (err.text) opts.onOutput({ stream: 'stderr', text: err.text });
    } catch {
      // The UI callback failing is not the command failing.
    }
  }
  return {
    stdout: out.text,
    stderr: err.text,
    exitCode: raw.exitCode,
    timedOut: raw.timedOut ?? false,
    aborted: raw.aborted ?? false,
    truncated: out.truncated || err.truncated,
  };
}

/** The line we add to stderr so the model reads why its command stopped. */
export function stopNotice(kind: 'timeout' | 'abort', timeoutMs?: number): string {
  return kind === 'timeout'
    ? `Command timed out after ${timeoutMs ?? '?'} ms and was stopped (exit 124). Run a shorter step or raise the timeout.\n`
    : 'Command was aborted by the user and stopped (exit 130).\n';
}
