/**
 * The sandbox's files as a flat, depth-first list for the tree view, kept fresh from the
 * sandbox's `watch` (and nudged by `sandbox.changed` events). Refreshes are coalesced: while one
 * listing runs, further changes only mark it dirty, so a burst of writes costs two listings.
 */
import { SvelteSet } from 'svelte/reactivity';
import type { Sandbox } from '../../harness/index.ts';

export type TreeEntry = { path: string; name: string; kind: 'file' | 'dir'; depth: number };

/** Enough for any scenario; a runaway `mkdir -p` loop must not freeze the page. */
const MAX_ENTRIES = 2000;
/** Big generated folders are listed but not opened. */
const SKIP_CHILDREN = new Set(['node_modules', '.git']);

/**
 * Names as a file tree lists them: case aside first (`README.md` beside `readme.txt`, not before
 * every lowercase name), then exactly. Not `localeCompare`: its first call on a page builds an ICU
 * collator (15–40 ms), and the tree is drawn right as a first Step runs.
 */
export function byNameForPeople(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class FileTree {
  entries = $state.raw<TreeEntry[]>([]);
  readonly collapsed = new SvelteSet<string>();
  loading = $state(false);
  error = $state<string | null>(null);
  truncated = $state(false);
  /** Bumped after each refresh, so an open file can re-read itself. */
  version = $state(0);

  private sandbox: Sandbox | null = null;
  private running = false;
  private dirty = false;

  /** Follow `sandbox`; returns the cleanup for a Svelte effect. */
  attach(sandbox: Sandbox): () => void {
    this.sandbox = sandbox;
    const unwatch = sandbox.fs.watch(() => this.refresh());
    this.refresh();
    return () => {
      unwatch();
      if (this.sandbox === sandbox) {
        this.sandbox = null;
        this.entries = [];
      }
    };
  }

  toggle(path: string): void {
    if (this.collapsed.has(path)) this.collapsed.delete(path);
    else this.collapsed.add(path);
  }

  /** Entries whose ancestors are all expanded. */
  visible(): TreeEntry[] {
    if (!this.collapsed.size) return this.entries;
    return this.entries.filter((e) => ![...this.collapsed].some((c) => e.path.startsWith(`${c}/`)));
  }

  refresh(): void {
    if (this.running) {
      this.dirty = true;
      return;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    this.loading = true;
    try {
      do {
        this.dirty = false;
        const sandbox = this.sandbox;
        if (!sandbox) break;
        const out: TreeEntry[] = [];
        await this.walk(sandbox, sandbox.workdir, 0, out);
        if (sandbox !== this.sandbox) continue;
        this.entries = out;
        this.truncated = out.length >= MAX_ENTRIES;
        this.error = null;
        this.version++;
      } while (this.dirty);
    } catch (err) {
      this.error = `Could not list the sandbox files: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.running = false;
      this.loading = false;
    }
  }

  private async walk(sandbox: Sandbox, dir: string, depth: number, out: TreeEntry[]): Promise<void> {
    let list;
    try {
      list = await sandbox.fs.list(dir);
    } catch (err) {
      // A folder removed mid-walk is simply gone; only the root failing is worth reporting.
      if (depth === 0) throw err;
      return;
    }
    // Folders first, then files, each by name: the order people expect in a tree.
    list.sort((a, b) => (a.kind === b.kind ? byNameForPeople(a.name, b.name) : a.kind === 'dir' ? -1 : 1));
    for (const entry of list) {
      if (out.length >= MAX_ENTRIES) return;
      const path = `${dir === '/' ? '' : dir}/${entry.name}`;
      out.push({ path, name: entry.name, kind: entry.kind, depth });
      if (entry.kind === 'dir' && !SKIP_CHILDREN.has(entry.name)) await this.walk(sandbox, path, depth + 1, out);
    }
  }
}
