/**
 * `write`: create a file or replace one the agent has read, keeping a snapshot for `revert`.
 */
import { z } from 'zod';
import { buildTool, type ToolContext, type ValidationResult } from './tool.ts';
import { checkFileEdit } from '../permissions/tool-checks.ts';
import { absPath, fail, fsErrorMessage, lineCount, safeStat } from './shared.ts';

const inputSchema = z.strictObject({
  file_path: z.string().min(1).describe('The file to write: absolute, or relative to the working directory.'),
  content: z.string().describe('The whole new content of the file.'),
});

export type WriteInput = z.infer<typeof inputSchema>;

const description = `Writes a file in the sandbox, creating it (and its parent directories) or replacing its whole content.

- To change part of an existing file, use edit instead: it sends only the change and is safer.
- An existing file must have been read with read first; otherwise this fails. If it changed since you read it, read it again.
- Each write can be undone with revert.
- Do not create documentation or README files unless asked.`;

/**
 * The checks shared by `validateInput` and `call` (the file may change between them).
 * Returns the content being replaced (`null` for a new file).
 */
async function check(ctx: ToolContext, path: string): Promise<{ ok: true; previous: string | null } | { ok: false; message: string }> {
  const { stat, error } = await safeStat(ctx, path);
  if (error) return { ok: false, message: error };
  if (stat === null) return { ok: true, previous: null };
  if (stat.kind === 'dir') return { ok: false, message: `${path} is a directory; give the path of a file inside it.` };
  if (!ctx.files.hasRead(path)) {
    return {
      ok: false,
      message: `${path} already exists and you have not read it. Read it first with the read tool, then write (or use edit to change part of it).`,
    };
  }
  let current: string;
  try {
    current = await ctx.sandbox.fs.readFile(path);
  } catch (e) {
    return { ok: false, message: fsErrorMessage(e, path, 'read') };
  }
  if (ctx.files.lastSeen(path) !== current) {
    return {
      ok: false,
      message: `${path} has changed since you last read it (a command or the user modified it). Read it again before writing, so you do not undo those changes.`,
    };
  }
  return { ok: true, previous: current };
}

export function writeTool() {
  return buildTool<WriteInput>({
    name: 'write',
    description,
    inputSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    // Overwriting is destructive, creating is not. Without the agent's file state we cannot
    // tell which it is, so we assume the worse. A file the agent has seen is (or was) there.
    isDestructive: (input, ctx) => (ctx ? ctx.files.hasRead(absPath(ctx, input.file_path)) : true),
    checkPermissions: (input, ctx) => checkFileEdit(input.file_path, ctx),
    async validateInput(input, ctx): Promise<ValidationResult> {
      const result = await check(ctx, absPath(ctx, input.file_path));
      return result.ok ? { ok: true } : result;
    },
    async call(input, ctx) {
      const path = absPath(ctx, input.file_path);
      const checked = await check(ctx, path);
      if (!checked.ok) return fail(checked.message);
      ctx.files.pushSnapshot({ path, previous: checked.previous, toolUseId: ctx.toolUseId ?? 'unknown' });
      try {
        await ctx.sandbox.fs.writeFile(path, input.content);
      } catch (e) {
        ctx.files.popSnapshot(path);
        return fail(fsErrorMessage(e, path, 'write'));
      }
      ctx.files.recordRead(path, input.content);
      const lines = lineCount(input.content);
      const what = checked.previous === null ? 'Created' : 'Overwrote';
      return { content: `${what} ${path} (${lines} line${lines === 1 ? '' : 's'}).` };
    },
  });
}
