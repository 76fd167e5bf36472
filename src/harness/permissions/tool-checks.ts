/**
 * The built-in tools' own permission checks (the `tool_check` stage), kept here so the tool
 * files only point at them.
 */
import type { PermissionCheckResult, ToolPermissionContext } from '../tools/tool.ts';
import { isInside, resolvePath } from '../util/paths.ts';
import { resolveArgPath } from './path-match.ts';
import { outsideReadReason, readIsOutside } from './read-scope.ts';
import { isSecretFile } from './secret-files.ts';

/** write / edit / revert: changing a file outside the working directory needs a person. */
export async function checkFileEdit(filePath: string | undefined, ctx: ToolPermissionContext): Promise<PermissionCheckResult> {
  if (filePath === undefined) return { behavior: 'passthrough' };
  const path = resolvePath(ctx.cwd, filePath);
  if (!isInside(ctx.workdir, path)) return { behavior: 'ask', message: `${path} is outside the working directory (${ctx.workdir})` };
  return { behavior: 'passthrough' };
}

/**
 * read: a file outside the working directory (and every additional directory), or one that
 * usually holds secrets (`.env`, keys), needs a person — or an allow rule naming it.
 */
export async function checkFileRead(filePath: string, ctx: ToolPermissionContext): Promise<PermissionCheckResult> {
  const path = resolveArgPath(filePath, ctx.cwd);
  if (readIsOutside(path, ctx.workdir, ctx.additionalDirectories)) return { behavior: 'ask', message: outsideReadReason(path, ctx.workdir) };
  if (isSecretFile(path)) return { behavior: 'ask', message: `${path} looks like a secrets file` };
  return { behavior: 'passthrough' };
}

/** glob / grep: searching a directory or file outside the working directory needs a person (or a Read allow rule). */
export async function checkSearch(searchPath: string, ctx: ToolPermissionContext): Promise<PermissionCheckResult> {
  const path = resolveArgPath(searchPath, ctx.cwd);
  if (readIsOutside(path, ctx.workdir, ctx.additionalDirectories)) return { behavior: 'ask', message: outsideReadReason(path, ctx.workdir) };
  return { behavior: 'passthrough' };
}
