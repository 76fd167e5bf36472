/**
 * Pure helpers of the sessions panel: the fork tree, titles, sizes. Framework-free so they are
 * unit-tested (test/unit/ui-sessions-tree.test.ts).
 */
import type { SessionInfo } from '../../harness/ports.ts';
import { redactText } from '../../harness/session/light.ts';

/** One line of the tree view: a session, how deep it sits under its ancestors. */
export type TreeRow = { info: SessionInfo; depth: number; children: number };

/**
 * Sessions as a tree, flattened depth-first: roots newest first (the store's order), each
 * session's forks right under it, newest first too. A fork whose parent was deleted becomes a
 * root. A cycle (impossible from the store, possible in damaged data) cannot loop: every session
 * is listed exactly once.
 */
export function sessionTree(list: readonly SessionInfo[]): TreeRow[] {
  const ids = new Set(list.map((s) => s.id));
  const kids = new Map<string, SessionInfo[]>();
  const roots: SessionInfo[] = [];
  for (const s of list) {
    if (s.parentId && s.parentId !== s.id && ids.has(s.parentId)) {
      const arr = kids.get(s.parentId) ?? [];
      arr.push(s);
      kids.set(s.parentId, arr);
    } else {
      roots.push(s);
    }
  }
  const out: TreeRow[] = [];
  const seen = new Set<string>();
  const visit = (s: SessionInfo, depth: number) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    const children = kids.get(s.id) ?? [];
    out.push({ info: s, depth, children: children.length });
    for (const c of children) visit(c, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  // Sessions only reachable through a cycle: list them as roots rather than lose them.
  for (const s of list) visit(s, 0);
  return out;
}

const clip = (text: string, max: number) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * A new session's title: the scenario's title and the first prompt. The prompt is where a person
 * pastes an API key, so `secrets` (the key in use, whatever its shape) and anything key-shaped are
 * redacted before clipping (a clipped key would no longer match).
 */
export function sessionTitle(scenarioTitle: string, prompt: string, secrets: readonly string[] = []): string {
  const p = clip(redactText(prompt, secrets), 60);
  return p ? `${clip(scenarioTitle, 40)} — ${p}` : clip(scenarioTitle, 40) || 'Session';
}

/** A fork's title: its parent's, marked with where it was forked. */
export function forkTitle(parentTitle: string, atSeq: number): string {
  const base = parentTitle.replace(/ \(fork @ \d+\)$/, '');
  return `${clip(base, 90)} (fork @ ${atSeq})`;
}

/** Bytes for people: 812 B, 14.2 KB, 3.1 MB. */
export function fmtBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** "just now", "5 min ago", "3 h ago", else the date; `now` is passed in for tests. */
export function fmtAgo(ts: number, now: number): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Date(ts).toISOString().slice(0, 10);
}

/** A file name for an export: the title in kebab case, never empty. */
export function exportFileName(title: string, id: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'session'}-${id.slice(0, 8)}.jsonl`;
}
