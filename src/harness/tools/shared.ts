/**
 * Small helpers the built-in tools share: error results, file-system error wording, and the
 * `cat -n` line format used by `read` and by `edit`'s snippet.
 */
import { SandboxFsError } from '../ports.ts';
import type { ToolContext, ToolOutcome } from './tool.ts';
import { resolvePath } from '../util/paths.ts';

export function fail(content: string): ToolOutcome {
  return { content, isError: true };
}

/** The absolute sandbox path for a tool's `file_path`/`path` argument. */
export function absPath(ctx: ToolContext, path: string): string {
  return resolvePath(ctx.cwd, path);
}

/** Longest line shown in full by `read`/`grep`; longer lines are cut with a marker. */
export const MAX_LINE_CHARS = 2000;

export function cutLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line cut: ${(line.length - max).toLocaleString('en-US')} more characters]`;
}

/**
 * The lines of a file: `\n`-separated, a final newline does not start another line, and a
 * trailing `\r` (CRLF files) is dropped for display.
 */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export function lineCount(content: string): number {
  return splitLines(content).length;
}

/** `cat -n` style: the number right-aligned in six columns, a tab, the line. */
export function numberLine(lineNo: number, text: string): string {
  return `${String(lineNo).padStart(6, ' ')}\t${text}`;
}

/** Text files only: a NUL in the first few kilobytes means binary, as git and grep judge it. */
export function looksBinary(content: string): boolean {
  return content.slice(0, 8000).includes('\u0000');
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** A sandbox fs failure in words the model can act on. */
export function fsErrorMessage(e: unknown, path: string, doing: string): string {
  if (e instanceof SandboxFsError) {
    switch (e.code) {
      case 'ENOENT':
        return `Could not ${doing} ${path}: it does not exist.`;
      case 'EISDIR':
        return `Could not ${doing} ${path}: it is a directory, not a file.`;
      case 'ENOTDIR':
        return `Could not ${doing} ${path}: a part of the path is a file, not a directory.`;
      case 'EACCES':
      case 'EPERM':
        return `Could not ${doing} ${path}: permission denied.`;
      default:
        return `Could not ${doing} ${path}: ${e.code} (${e.message}).`;
    }
  }
  return `Could not ${doing} ${path}: ${errorText(e)}`;
}

/** `stat` that turns a failure into `null` plus the reason, so tools never throw. */
export async function safeStat(
  ctx: ToolContext,
  path: string,
): Promise<{ stat: Awaited<ReturnType<ToolContext['sandbox']['fs']['stat']>>; error?: string }> {
  try {
    return { stat: await ctx.sandbox.fs.stat(path) };
  } catch (e) {
    return { stat: null, error: fsErrorMessage(e, path, 'inspect') };
  }
}
