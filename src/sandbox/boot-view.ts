/**
 * What a just-bash sandbox that is still starting will answer to a read, worked out from what it
 * is being started with: its files and directories, all given one modification time
 * (`createJustBashSandbox`'s `mtimeMs`). `booting-sandbox.ts` answers reads from it until the
 * sandbox is up, so the run's start-up reads (settings, CLAUDE.md, rules, commands, skills,
 * agents) do not wait for the worker to compile just-bash (issue 23 §4: the first Step).
 *
 * It answers only where the answer is certain, and says "unknown" everywhere else (the caller
 * then waits for the sandbox):
 * - under the project ({@link WORKDIR}) and home ({@link HOME_DIR}) directories, which hold the
 *   start's files and directories and nothing else (just-bash puts nothing there);
 * - a path whose first component is not one of the directories just-bash makes at the root
 *   ({@link JUST_BASH_ROOT_DIRS}), or that is in `/home` beside those two: nothing is there.
 * `/`, `/home` themselves and anything in just-bash's own folders (`/bin`, `/dev`, `/proc` …) are
 * unknown, as is `realpath` (links), and the whole view when a start path lies outside the two
 * directories. The answers and errors are the ones `justbash/fs-adapter.ts` gives for the same
 * state; `test/unit/boot-view.test.ts` compares them with a real just-bash sandbox, path by path.
 */
import { HOME_DIR, SandboxFsError, WORKDIR } from '../harness/ports.ts';
import type { DirEntry, FileStat } from '../harness/ports.ts';
import { resolvePath } from '../harness/util/index.ts';
import { describeFsError } from './fs-errors.ts';

/**
 * The directories a new just-bash sandbox has at its root (just-bash 3.4: `/bin`, `/usr`, `/dev`,
 * `/proc` from its `Bash`; `/home` from our project and home directories). A test lists a real
 * sandbox's root against this, so a just-bash that adds one (`/tmp`, `/etc`) fails it.
 */
export const JUST_BASH_ROOT_DIRS: readonly string[] = ['bin', 'dev', 'home', 'proc', 'usr'];

/** A read the view can answer: the value, or the error the sandbox would reject with. */
export type BootAnswer = { value: unknown } | { error: SandboxFsError };

type Node = { kind: 'file'; content: string; size: number } | { kind: 'dir' };

const ROOTS = [WORKDIR, HOME_DIR];

function fail(code: string, path: string): BootAnswer {
  return { error: new SandboxFsError(code, path, describeFsError(code, path)) };
}

function inRoot(path: string): boolean {
  return ROOTS.some((r) => path === r || path.startsWith(`${r}/`));
}

export class BootView {
  private readonly nodes = new Map<string, Node>();
  /** False when a start path lies outside the project and home directories: nothing is answered. */
  readonly usable: boolean;

  /**
   * @param files path (absolute, or relative to the project) → content, as the sandbox gets them
   * @param dirs directories the sandbox is started with besides (absolute or relative)
   * @param mtimeMs the modification time every one of them (and the two directories) starts with
   */
  constructor(
    files: Readonly<Record<string, string>>,
    dirs: readonly string[],
    private readonly mtimeMs: number,
  ) {
    for (const root of ROOTS) this.nodes.set(root, { kind: 'dir' });
    let usable = true;
    const addDir = (path: string) => {
      if (!inRoot(path)) return void (usable = false);
      for (let p = path; !ROOTS.includes(p); p = p.slice(0, p.lastIndexOf('/'))) {
        // A file with files under it: just-bash's answer there is its own business, not ours to guess.
        if (this.nodes.get(p)?.kind === 'file') usable = false;
        this.nodes.set(p, { kind: 'dir' });
      }
    };
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    for (const [raw, content] of Object.entries(files)) {
      const path = resolvePath(WORKDIR, raw);
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      addDir(parent);
      if (!inRoot(path) || ROOTS.includes(path) || this.nodes.has(path)) {
        usable = false;
        continue;
      }
      // Stored as UTF-8: what reads back (a lone surrogate becomes U+FFFD) and its size in bytes.
      const bytes = encoder.encode(content);
      this.nodes.set(path, { kind: 'file', content: decoder.decode(bytes), size: bytes.length });
    }
    for (const raw of dirs) addDir(resolvePath(WORKDIR, raw));
    this.usable = usable;
  }

  /** The answer to `op(...args)` the started sandbox would give, or undefined when it is not certain. */
  answer(op: string, args: readonly unknown[]): BootAnswer | undefined {
    if (!this.usable || typeof args[0] !== 'string') return undefined;
    const path = resolvePath(WORKDIR, args[0]);
    const where = this.region(path);
    if (where === 'unknown') return undefined;
    const node = where === 'absent' ? undefined : this.nodes.get(path);
    switch (op) {
      case 'stat':
        return { value: this.statOf(node) };
      case 'list':
        if (!node) return fail('ENOENT', path);
        if (node.kind === 'file') return fail('ENOTDIR', path);
        return { value: this.children(path) };
      case 'readFile':
        if (!node) return fail(this.missingAncestorIsFile(path) ? 'ENOTDIR' : 'ENOENT', path);
        if (node.kind === 'dir') return fail('EISDIR', path);
        return { value: node.content };
      default:
        return undefined;
    }
  }

  /** For a resolved (normalized) path: 'inside' the project or home, 'absent' where just-bash has nothing, else 'unknown'. */
  private region(path: string): 'inside' | 'absent' | 'unknown' {
    if (inRoot(path)) return 'inside';
    const parts = path.split('/').filter(Boolean);
    if (parts.length === 0) return 'unknown';
    if (!JUST_BASH_ROOT_DIRS.includes(parts[0]!)) return 'absent';
    if (parts[0] !== 'home' || parts.length === 1) return 'unknown';
    // `/home/<name>`: only the project and home directories are there.
    return 'absent';
  }

  private statOf(node: Node | undefined): FileStat | null {
    if (!node) return null;
    return node.kind === 'dir' ? { kind: 'dir', size: 0, mtimeMs: this.mtimeMs } : { kind: 'file', size: node.size, mtimeMs: this.mtimeMs };
  }

  private children(dir: string): DirEntry[] {
    const prefix = `${dir}/`;
    const out: DirEntry[] = [];
    for (const [path, node] of this.nodes) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes('/')) out.push({ name: path.slice(prefix.length), kind: node.kind });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** For a missing path: whether one of its ancestors is a file (the sandbox then says ENOTDIR). */
  private missingAncestorIsFile(path: string): boolean {
    const parts = path.split('/').filter(Boolean);
    let cur = '';
    for (const part of parts.slice(0, -1)) {
      cur += `/${part}`;
      const node = this.nodes.get(cur);
      if (node?.kind === 'file') return true;
      // The first missing ancestor decides (ENOENT), as `fs-adapter.ts`'s checkAncestors does.
      if (!node && inRoot(cur)) return false;
    }
    return false;
  }
}
