/**
 * A schema failure (the SDK's zod checks of a JSON-RPC message or a result) as one short line:
 * the first problem, with where it is. The SDK's own message is the whole issue list as
 * pretty-printed JSON — dozens of lines for a server that answers `{"hello": 1}` — which must
 * reach neither the user nor the model.
 */
import { mcp } from '../harness/index.ts';

type Issue = { code?: unknown; path?: unknown; message?: unknown; errors?: unknown };

/** The issue list of a zod error, or of an Error whose message is that list as JSON; null otherwise. */
function issuesOf(e: unknown): Issue[] | null {
  const err = e as { issues?: unknown; message?: unknown } | null;
  if (err && Array.isArray(err.issues)) return err.issues as Issue[];
  const message = typeof err?.message === 'string' ? err.message.trim() : '';
  if (!message.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) && parsed.every((i) => i && typeof i === 'object' && 'message' in i) ? (parsed as Issue[]) : null;
  } catch {
    return null;
  }
}

/** `path: message` of the first problem, looking into the first branch of a failed union. */
function firstProblem(issues: readonly Issue[], prefix: readonly unknown[] = []): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const path = [...prefix, ...(Array.isArray(issue.path) ? issue.path : [])];
  const branches = Array.isArray(issue.errors) ? (issue.errors as unknown[]) : [];
  const branch = branches.find((b): b is Issue[] => Array.isArray(b) && b.length > 0);
  if (issue.code === 'invalid_union' && branch) return firstProblem(branch, path);
  const where = path.length > 0 ? `${path.map(String).join('.')}: ` : '';
  return `${where}${typeof issue.message === 'string' ? issue.message : 'invalid'}`;
}

/** The first schema problem of `e` as one line, or null when `e` is not a schema failure. */
export function schemaProblem(e: unknown): string | null {
  const issues = issuesOf(e);
  return issues ? mcp.clipLine(firstProblem(issues)) : null;
}
