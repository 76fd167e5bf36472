/**
 * `read`: a text file as `cat -n` numbered lines, a window at a time.
 */
import { z } from 'zod';
import { basename, dirname, relativeTo } from '../util/paths.ts';
import { buildTool, type ToolContext } from './tool.ts';
import { checkFileRead } from '../permissions/tool-checks.ts';
import { MAX_LINE_CHARS, absPath, cutLine, fail, fsErrorMessage, looksBinary, numberLine, safeStat, splitLines } from './shared.ts';

export const READ_DEFAULT_LIMIT = 2000;
/** About 25,000 tokens: a read stops at whole lines before this, and says where to go on. */
export const READ_MAX_CHARS = 100_000;

const inputSchema = z.strictObject({
  file_path: z.string().min(1).describe('The file to read: absolute, or relative to the working directory.'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The line number to start at (1-based). Only for files too long to read at once.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to read (default ${READ_DEFAULT_LIMIT}).`),
});

export type ReadInput = z.infer<typeof inputSchema>;

const description = `Reads a text file from the sandbox and returns it with line numbers.

- file_path may be absolute or relative to the working directory.
- Returns up to ${READ_DEFAULT_LIMIT} lines from the start by default. For longer files, read on with offset (the 1-based line to start at) and limit.
- Output is in cat -n format: the line number, a tab, then the line. The numbers and the tab are not part of the file: leave them out of old_string when you edit.
- Lines longer than ${MAX_LINE_CHARS} characters are cut; one read returns at most about ${READ_MAX_CHARS / 1000},000 characters.
- You must read a file before you edit or overwrite it. Reading several files you will need at once is fine.
- To list a directory use bash (ls) or glob; to find files by name use glob; to search contents use grep.`;

/** Names in the same directory that look like what was asked for, to suggest on ENOENT. */
async function similarNames(ctx: ToolContext, path: string): Promise<string[]> {
  try {
    const want = basename(path).toLowerCase();
    const stem = want.replace(/\.[^.]*$/, '');
    const entries = await ctx.sandbox.fs.list(dirname(path));
    return entries
      .filter((e) => e.kind === 'file')
      .map((e) => e.name)
      .filter((n) => n.toLowerCase() === want || n.toLowerCase().replace(/\.[^.]*$/, '') === stem)
      .slice(0, 5)
      .map((n) => relativeTo(ctx.cwd, `${dirname(path)}/${n}`));
  } catch {
    return [];
  }
}

export function readTool() {
  return buildTool<ReadInput>({
    name: 'read',
    description,
    inputSchema,
    maxResultChars: READ_MAX_CHARS + 1_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    checkPermissions: (input, ctx) => checkFileRead(input.file_path, ctx),
    async call(input, ctx) {
      const path = absPath(ctx, input.file_path);
      const { stat, error } = await safeStat(ctx, path);
      if (error) return fail(error);
      if (stat === null) {
        const similar = await similarNames(ctx, path);
        const hint = similar.length > 0 ? ` Did you mean ${similar.join(' or ')}?` : '';
        return fail(
          `File does not exist: ${path}.${hint} Use glob (e.g. pattern "**/${basename(path)}") to find the right path.`,
        );
      }
      if (stat.kind === 'dir') {
        return fail(`${path} is a directory, not a file. Use bash (ls ${relativeTo(ctx.cwd, path)}) or glob to see what it contains.`);
      }

      let content: string;
      try {
        content = await ctx.sandbox.fs.readFile(path);
      } catch (e) {
        return fail(fsErrorMessage(e, path, 'read'));
      }
      if (looksBinary(content)) {
        return fail(`${path} looks like a binary file (it contains NUL bytes); read shows text files only.`);
      }
      ctx.files.recordRead(path, content);

      const lines = splitLines(content);
      if (lines.length === 0) {
        return { content: `(The file ${path} exists but is empty.)` };
      }
      const offset = input.offset ?? 1;
      const limit = input.limit ?? READ_DEFAULT_LIMIT;
      if (offset > lines.length) {
        return fail(
          `The file has ${lines.length} line${lines.length === 1 ? '' : 's'}; offset ${offset} is past its end. Use an offset from 1 to ${lines.length}.`,
        );
      }
      const last = Math.min(lines.length, offset - 1 + limit);
      const out: string[] = [];
      let chars = 0;
      let end = offset - 1;
      for (let n = offset; n <= last; n++) {
        const line = numberLine(n, cutLine(lines[n - 1]!));
        // Always show at least one line; otherwise stop at whole lines within the budget.
        if (n > offset && chars + line.length + 1 > READ_MAX_CHARS) break;
        out.push(line);
        chars += line.length + 1;
        end = n;
      }
      const remaining = lines.length - end;
      if (remaining > 0) {
        const why = end < last ? ' (this read stopped at its size limit)' : '';
        out.push(`… ${remaining} more line${remaining === 1 ? '' : 's'}${why}; use offset ${end + 1} to read on`);
      }
      return { content: out.join('\n') };
    },
  });
}
