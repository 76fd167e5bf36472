/**
 * POSIX path helpers for sandbox paths (no `node:path`: the harness runs in the browser too).
 */

/** Collapses `.`, `..` and repeated slashes; always absolute. */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return '/' + parts.join('/');
}

/** `path` made absolute against `cwd` when relative. */
export function resolvePath(cwd: string, path: string): string {
  return normalizePath(path.startsWith('/') ? path : `${cwd}/${path}`);
}

export function dirname(path: string): string {
  const norm = normalizePath(path);
  const i = norm.lastIndexOf('/');
  return i <= 0 ? '/' : norm.slice(0, i);
}

export function basename(path: string): string {
  const norm = normalizePath(path);
  return norm.slice(norm.lastIndexOf('/') + 1);
}

/** `path` relative to `base` when inside it (`src/a.ts`), else the absolute path. */
export function relativeTo(base: string, path: string): string {
  const b = normalizePath(base);
  const p = normalizePath(path);
  if (p === b) return '.';
  return p.startsWith(b === '/' ? '/' : b + '/') ? p.slice(b === '/' ? 1 : b.length + 1) : p;
}

export function isInside(base: string, path: string): boolean {
  const b = normalizePath(base);
  const p = normalizePath(path);
  return p === b || p.startsWith(b === '/' ? '/' : b + '/');
}

/**
 * A path relative to the project that stays inside it: not empty, not absolute, no `..` segment,
 * no NUL — the rule a scenario's files follow, applied to every path that arrives from outside
 * (an imported session's snapshots too).
 */
export function isProjectRelativePath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.includes('\0') && !path.split('/').includes('..');
}
