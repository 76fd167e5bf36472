/**
 * `revert`: undo the agent's newest write or edit (of one file, if named) from its snapshot.
 */
import { z } from 'zod';
import { buildTool } from './tool.ts';
import { checkFileEdit } from '../permissions/tool-checks.ts';
import { absPath, fail, fsErrorMessage, lineCount } from './shared.ts';

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .optional()
    .describe('Undo the newest change to this file. Leave out to undo the newest change to any file.'),
});

export type RevertInput = z.infer<typeof inputSchema>;

const description = `Undoes your most recent write or edit: restores the file's content from before it, or deletes the file if that change created it.

- With file_path, undoes the most recent change to that file; without, the most recent change to any file.
- Call it again to step further back. It covers only changes made with write and edit, not files changed through bash.
- Changes made to the file after your write or edit (by commands or the user) are lost too.`;

export function revertTool() {
  return buildTool<RevertInput>({
    name: 'revert',
    description,
    inputSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    // It discards the file's current content.
    isDestructive: () => true,
    checkPermissions: (input, ctx) => checkFileEdit(input.file_path, ctx),
    async validateInput(input, ctx) {
      if (ctx.files.snapshotCount() === 0) return { ok: false, message: 'There is nothing to revert: you have not changed any file with write or edit.' };
      return { ok: true };
    },
    async call(input, ctx) {
      const wanted = input.file_path === undefined ? undefined : absPath(ctx, input.file_path);
      const snap = ctx.files.popSnapshot(wanted);
      if (!snap) {
        return fail(
          wanted === undefined
            ? 'There is nothing to revert: you have not changed any file with write or edit.'
            : `There is nothing to revert for ${wanted}: you have not changed it with write or edit (or every change was already reverted).`,
        );
      }
      const path = snap.path;
      let current: string | null;
      try {
        current = (await ctx.sandbox.fs.stat(path)) ? await ctx.sandbox.fs.readFile(path) : null;
      } catch {
        current = null;
      }
      const lastSeen = ctx.files.lastSeen(path);
      const note =
        current !== null && lastSeen !== undefined && current !== lastSeen
          ? ' Note: the file had been changed since your last write or edit; those changes were discarded too.'
          : '';
      try {
        if (snap.previous === null) {
          await ctx.sandbox.fs.rm(path, { force: true });
        } else {
          await ctx.sandbox.fs.writeFile(path, snap.previous);
        }
      } catch (e) {
        ctx.files.pushSnapshot(snap); // not reverted: keep it for another try
        return fail(fsErrorMessage(e, path, snap.previous === null ? 'delete' : 'restore'));
      }
      if (snap.previous === null) {
        ctx.files.forget(path);
        return { content: `Reverted ${path}: deleted it (it was created by tool call ${snap.toolUseId}).${note}` };
      }
      ctx.files.recordRead(path, snap.previous);
      const n = lineCount(snap.previous);
      return {
        content: `Reverted ${path} to its content before tool call ${snap.toolUseId} (${n} line${n === 1 ? '' : 's'}).${note}`,
      };
    },
  });
}
