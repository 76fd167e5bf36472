/**
 * Where reads may go without asking. As in Claude Code, reads are confined to the working
 * directory and the settings' `additionalDirectories`: a `read`, `glob` or `grep` of a path
 * outside them — or a shell command whose path arguments point outside (`cat /etc/hosts`,
 * `ls ../..`, `cat ~/.ssh/id_rsa`) — asks, unless a `Read(...)` allow rule covers the path.
 * `~` is the sandbox user's home ({@link HOME_DIR}), which is outside the project.
 */
import { isInside } from '../util/paths.ts';
import { matchPathPattern, resolveArgPath } from './path-match.ts';
import type { SourcedRule } from './types.ts';

/** Pseudo-files every command may read: they hold nothing of the user's. */
const HARMLESS = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero', '/dev/urandom', '/dev/random']);

/** The directories reads may reach without asking: the workdir, then each additional directory (resolved from the workdir). */
export function readableRoots(workdir: string, additional: readonly string[] = []): string[] {
  return [workdir, ...additional.map((d) => resolveArgPath(d.trim(), workdir))];
}

/** Whether reading `path` needs approval because it lies outside every readable root. */
export function readIsOutside(path: string, workdir: string, additional: readonly string[] = []): boolean {
  if (HARMLESS.has(path)) return false;
  return !readableRoots(workdir, additional).some((root) => isInside(root, path));
}

/** The reason text for an outside read, naming what would settle it. */
export function outsideReadReason(path: string, workdir: string): string {
  return `${path} is outside the working directory (${workdir}); reading it needs approval, a Read(...) allow rule for it, or an additionalDirectories entry`;
}

/**
 * What searches must leave out: every file a `Read(...)` deny or ask rule covers. `grep` and
 * `glob` over a tree skip those files (Claude Code's Grep does too), so nothing of a denied file —
 * not its lines, not its name, not a count — reaches the model through a search. An ask rule is
 * skipped as well (stricter): a search must not read what a person was to be asked about.
 * Returns `undefined` when no rule applies, so the tools skip nothing.
 */
export function searchExclusions(rules: readonly SourcedRule[], workdir: string): ((absPath: string) => boolean) | undefined {
  const covering = rules.filter((r) => r.behavior !== 'allow' && r.rule.kind === 'tool' && r.rule.tool === 'Read' && r.rule.specifier !== undefined);
  if (covering.length === 0) return undefined;
  return (path) => covering.some((r) => r.rule.kind === 'tool' && matchPathPattern(r.rule.specifier!, path, workdir));
}
