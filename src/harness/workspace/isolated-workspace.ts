/**
 * `createIsolatedWorkspace(base, opts)`: an agent's own copy of the working tree inside the same
 * sandbox. The snapshot taken at creation is the lower layer (what every diff and every overlap
 * check is measured against); the private tree under `/.ws/<id>/` is the agent's layer. The
 * returned `sandbox` is a view of the base in which the working directory *is* that private tree:
 * file tools, glob, grep and bash all see the same files under the same `/home/project` paths.
 * Why a private directory rather than an in-memory overlay: bash runs inside the base sandbox's
 * interpreter, which can only see files that exist there, so the layer has to be real files.
 * In a git project the private tree is a linked worktree on its own branch (`git-backing.ts`).
 */
import { SandboxFsError, type ExecOptions, type Sandbox, type SandboxFs } from '../ports.ts';
import { diffTrees, type FileChange } from './changes.ts';
import type { WorkspaceEventBody } from './events.ts';
import { openGitBacking, type GitBacking } from './git-backing.ts';
import { pathMap, WORKSPACES_ROOT, type PathMap } from './paths.ts';
import { readTree, writeTree } from './tree.ts';

export type IsolatedWorkspaceOptions = {
  /** Unique among live workspaces; becomes part of the private path, so letters, digits, `-`, `_` and `.`. */
  id: string;
  /** What the agent was asked to do: the subject of its commit in a git project. */
  task?: string;
};

export type IsolatedWorkspace = {
  id: string;
  /** The private tree in the base sandbox, e.g. `/.ws/agent-a/home/project`. */
  root: string;
  /** The agent's view: give this to its loop instead of the base sandbox. */
  sandbox: Sandbox;
  /** The base working tree as it was at creation (relative path → content); in a git project, HEAD's files. */
  snapshot: ReadonlyMap<string, string>;
  /** Present when the tree is a linked git worktree on its own branch. */
  git?: GitBacking;
  task?: string;
  /** Files the agent added, changed or deleted, against the snapshot. */
  changes(): Promise<FileChange[]>;
  /** Removes the private tree. The base is not touched. */
  dispose(): Promise<void>;
};

const ID_RE = /^[A-Za-z0-9._-]{1,80}$/;

export async function createIsolatedWorkspace(base: Sandbox, opts: IsolatedWorkspaceOptions): Promise<IsolatedWorkspace> {
  if (!ID_RE.test(opts.id) || opts.id === '.' || opts.id === '..') {
    throw new Error(`A workspace id must be 1–80 letters, digits, "-", "_" or "."; got ${JSON.stringify(opts.id)}`);
  }
  const map = pathMap(base.workdir, opts.id);
  if (await base.fs.stat(map.root)) throw new Error(`A workspace with id "${opts.id}" already exists at ${map.root}`);
  // A git project: the worktree is a checkout of HEAD, as `git worktree add` makes it (uncommitted
  // edits in the project are not in it). Otherwise the working tree is copied as it is.
  const git = await openGitBacking(base, opts.id, map.root);
  let snapshot: Map<string, string>;
  if (git) snapshot = await readTree(base.fs, map.root);
  else {
    snapshot = await readTree(base.fs, base.workdir);
    await writeTree(base.fs, map.root, snapshot);
  }
  let disposed = false;
  const sandbox: Sandbox = {
    kind: base.kind,
    workdir: base.workdir,
    ...(base.capabilities ? { capabilities: base.capabilities } : {}),
    fs: mappedFs(base.fs, map),
    exec: async (command, o: ExecOptions = {}) => {
      const res = await base.exec(map.rewriteIn(command), {
        ...o,
        cwd: map.toBase(o.cwd ?? base.workdir),
        ...(o.stdin !== undefined ? { stdin: map.rewriteIn(o.stdin) } : {}),
        ...(o.onOutput ? { onOutput: (c) => o.onOutput!({ ...c, text: map.rewriteOut(c.text) }) } : {}),
      });
      return { ...res, stdout: map.rewriteOut(res.stdout), stderr: map.rewriteOut(res.stderr) };
    },
    // The base belongs to whoever made it; a workspace view never disposes it.
    dispose: () => Promise.resolve(),
  };
  return {
    id: opts.id,
    root: map.root,
    sandbox,
    snapshot,
    ...(git ? { git } : {}),
    ...(opts.task !== undefined ? { task: opts.task } : {}),
    changes: async () => diffTrees(snapshot, await readTree(base.fs, map.root)),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      // The worktree goes; its branch (and the agent's commit) stays, as after `git worktree remove`.
      if (git) await base.git!.removeWorktree(base.workdir, map.root).catch(() => undefined);
      await base.fs.rm(`${WORKSPACES_ROOT}/${opts.id}`, { recursive: true, force: true });
    },
  };
}

/** The `workspace.created` event for `ws`, made for `forAgentId`. */
export function createdEvent(ws: IsolatedWorkspace, forAgentId: string): Extract<WorkspaceEventBody, { type: 'workspace.created' }> {
  return { type: 'workspace.created', workspaceId: ws.id, forAgentId, root: ws.root, files: ws.snapshot.size, ...(ws.git ? { git: { branch: ws.git.branch, base: ws.git.base } } : {}) };
}

/** `SandboxFs` with working-directory paths sent to the private tree, and errors naming the agent's path. */
function mappedFs(fs: SandboxFs, map: PathMap): SandboxFs {
  const back = async <T>(path: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof SandboxFsError) throw new SandboxFsError(err.code, path, map.rewriteOut(err.message));
      throw err;
    }
  };
  return {
    readFile: (p) => back(p, () => fs.readFile(map.toBase(p))),
    writeFile: (p, c) => back(p, () => fs.writeFile(map.toBase(p), c)),
    list: (d) => back(d, () => fs.list(map.toBase(d))),
    stat: (p) => back(p, () => fs.stat(map.toBase(p))),
    mkdir: (p, o) => back(p, () => fs.mkdir(map.toBase(p), o)),
    rm: (p, o) => back(p, () => fs.rm(map.toBase(p), o)),
    rename: (a, b) => back(a, () => fs.rename(map.toBase(a), map.toBase(b))),
    // The private tree's real path, shown as the agent's (a link out of it stays outside).
    realpath: (p) => back(p, async () => map.toAgent(await fs.realpath(map.toBase(p)))),
    watch: (listener) =>
      fs.watch(({ paths }) => {
        const mine = paths.filter((p) => p.startsWith(map.root + '/') || p === map.root).map((p) => map.toAgent(p));
        if (mine.length) listener({ paths: mine });
      }),
  };
}
