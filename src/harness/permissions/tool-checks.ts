/**
 * The built-in tools' own permission checks (the `tool_check` stage), kept here so the tool
 * files only point at them.
 */
import type { PermissionCheckResult, ToolPermissionContext } from '../tools/tool.ts';
import { isInside, resolvePath } from '../util/paths.ts';
import { isSecretFile } from './secret-files.ts';

/** write / edit / revert: changing a file outside the working directory needs a person. */
export async function checkFileEdit(filePath: string | undefined, ctx: ToolPermissionContext): Promise<PermissionCheckResult> {
  if (filePath === undefined) return { behavior: 'passthrough' };
  const path = resolvePath(ctx.cwd, filePath);
  if (!isInside(ctx.workdir, path)) return { behavior: 'ask', message: `${path} is outside the working directory (${ctx.workdir})` };
  return { behavior: 'passthrough' };
}

/** read: a file that usually holds secrets (`.env`, keys) needs a person. */
export async function checkFileRead(filePath: string, ctx: ToolPermissionContext): Promise<PermissionCheckResult> {
  const path = resolvePath(ctx.cwd, filePath);
  if (isSecretFile(path)) return { behavior: 'ask', message: `${path} looks like a secrets file` };
  return { behavior: 'passthrough' };
}
