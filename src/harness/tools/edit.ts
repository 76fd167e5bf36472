/**
 * `edit`: exact string replacement in a file the agent has read, keeping a snapshot for `revert`.
 */
import { z } from 'zod';
import { buildTool, type ToolContext, type ValidationResult } from './tool.ts';
import { checkFileEdit } from '../permissions/tool-checks.ts';
import { absPath, cutLine, fail, fsErrorMessage, numberLine, safeStat, splitLines } from './shared.ts';
import { lineOf, matchEdit, notFoundHint, replaceAt } from './edit-match.ts';

const inputSchema = z.strictObject({
  file_path: z.string().min(1).describe('The file to change: absolute, or relative to the working directory.'),
  old_string: z.string().describe('The exact text to replace, copied from the file.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).'),
});

export type EditInput = z.infer<typeof inputSchema>;

/** Lines of context shown around the change in the result. */
const SNIPPET_CONTEXT = 3;

const description = `Replaces exact text in a file: old_string becomes new_string.

- Read the file with read first; edits of unread files fail. If the file changed since you read it, read it again.
- old_string must match the file exactly, whitespace and indentation included. Copy it from the read output without the line-number prefix (the number and the tab before each line).
- old_string must occur exactly once, unless replace_all is true. If it occurs several times, include more surrounding lines to make it unique. Use replace_all to rename something throughout the file.
- To create a new file use write. Each edit can be undone with revert.`;

type Plan = { ok: true; content: string; at: number[]; oldString: string; newString: string } | { ok: false; message: string };

/** Every check `edit` makes, shared by `validateInput` and `call`. */
async function plan(ctx: ToolContext, input: EditInput): Promise<Plan> {
  const path = absPath(ctx, input.file_path);
  if (input.old_string === input.new_string) {
    return { ok: false, message: 'old_string and new_string are identical, so there is nothing to change. Give the new text in new_string.' };
  }
  if (input.old_string === '') {
    return {
      ok: false,
      message: 'old_string is empty. To create a file use write; to insert text, put the neighbouring lines in old_string and repeat them in new_string with the addition.',
    };
  }
  const { stat, error } = await safeStat(ctx, path);
  if (error) return { ok: false, message: error };
  if (stat === null) return { ok: false, message: `File does not exist: ${path}. Check the path with glob, or use write to create a new file.` };
  if (stat.kind === 'dir') return { ok: false, message: `${path} is a directory, not a file.` };
  if (!ctx.files.hasRead(path)) {
    return { ok: false, message: `You have not read ${path} yet. Read it first with the read tool, then edit.` };
  }
  let content: string;
  try {
    content = await ctx.sandbox.fs.readFile(path);
  } catch (e) {
    return { ok: false, message: fsErrorMessage(e, path, 'read') };
  }
  if (ctx.files.lastSeen(path) !== content) {
    return {
      ok: false,
      message: `${path} has changed since you last read it (a command or the user modified it). Read it again, then make the edit against its current content.`,
    };
  }
  // Models write "\n"; a CRLF file needs "\r\n" to match. Keep the file's line endings.
  const { at, oldString, newString } = matchEdit(content, input.old_string, input.new_string);
  if (at.length === 0) {
    return { ok: false, message: `old_string was not found in ${path}.${notFoundHint(content, input.old_string)}` };
  }
  if (at.length > 1 && !input.replace_all) {
    const lines = at.slice(0, 10).map((i) => lineOf(content, i));
    return {
      ok: false,
      message: `old_string occurs ${at.length} times in ${path} (lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}). Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
    };
  }
  return { ok: true, content, at, oldString, newString };
}

/** Numbered lines around the first change, from the new content. */
function snippet(updated: string, startIndex: number, newString: string): string {
  const lines = splitLines(updated);
  const first = lineOf(updated, startIndex);
  const last = first + Math.max(0, splitLines(newString).length - 1);
  const from = Math.max(1, first - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, last + SNIPPET_CONTEXT);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(numberLine(n, cutLine(lines[n - 1] ?? '', 300)));
  return out.join('\n');
}

export function editTool() {
  return buildTool<EditInput>({
    name: 'edit',
    description,
    inputSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    // A targeted change the agent has read around, undoable with revert.
    isDestructive: () => false,
    checkPermissions: (input, ctx) => checkFileEdit(input.file_path, ctx),
    async validateInput(input, ctx): Promise<ValidationResult> {
      const p = await plan(ctx, input);
      return p.ok ? { ok: true } : p;
    },
    async call(input, ctx) {
      const path = absPath(ctx, input.file_path);
      const p = await plan(ctx, input);
      if (!p.ok) return fail(p.message);
      const updated = replaceAt(p.content, p.oldString, p.newString, p.at);
      ctx.files.pushSnapshot({ path, previous: p.content, toolUseId: ctx.toolUseId ?? 'unknown' });
      try {
        await ctx.sandbox.fs.writeFile(path, updated);
      } catch (e) {
        ctx.files.popSnapshot(path);
        return fail(fsErrorMessage(e, path, 'write'));
      }
      ctx.files.recordRead(path, updated);
      // Where the first replacement landed in the new text.
      const firstAt = p.at[0]!;
      const what = p.at.length === 1 ? 'Edited' : `Replaced ${p.at.length} occurrences in`;
      const shown = p.at.length === 1 ? '' : ' (first one shown)';
      return { content: `${what} ${path}${shown}:\n${snippet(updated, firstAt, p.newString)}` };
    },
  });
}
