/**
 * Where a teammate works. `shared` (default): the lead's sandbox, like every agent. `overlay`
 * (Claude Code spells it `worktree`): its own isolated copy of the working tree
 * (`harness/workspace/`), made when it is spawned and offered back when it finishes.
 * The team's coordination files stay shared even in a copy: the task board (`.tasks/`) and the
 * mailboxes (`.team/`) are how teammates see each other, so a copy of them would be a split brain
 * (a claim written to the board while the teammate marks its private, stale copy completed).
 */
import type { Sandbox, SandboxFs } from '../../ports.ts';
import type { TraceEventBody } from '../../trace.ts';
import { isInside, resolvePath } from '../../util/paths.ts';
import { createdEvent, createIsolatedWorkspace } from '../../workspace/isolated-workspace.ts';
import { offerBack } from '../../workspace/offer-back.ts';
import { TASKS_DIR } from '../tasks/store.ts';
import { TEAM_DIR } from './mailbox.ts';

export type TeammateIsolation = 'shared' | 'overlay';

/** What the spawn tool accepts: Claude Code's `worktree` is our `overlay`. */
export function isolationOf(input: 'shared' | 'overlay' | 'worktree' | undefined): TeammateIsolation | undefined {
  return input === 'worktree' ? 'overlay' : input;
}

/** What offering a copy back did: files changed, merged, and refused as conflicts (never written). */
export type WorkspaceOutcome = { changed: number; report: string; merged?: string[]; conflicts?: string[] };

export type TeammateWorkspace = {
  /** The teammate's view: its loop gets this instead of the base sandbox. */
  sandbox: Sandbox;
  /**
   * Offers its changes back to the base (refusing conflicts, never overwriting) and removes the
   * copy. `emit` is the stream of whoever is moving the team now (the copy outlives the spawn call).
   */
  close(emit: (e: TraceEventBody) => Promise<void>): Promise<WorkspaceOutcome>;
};

/** Makes a teammate's workspace; `emit` takes `workspace.created` (the spawn call's stream). */
export type WorkspaceFactory = (req: { name: string; agentId: string; base: Sandbox; emit: (e: TraceEventBody) => Promise<void> }) => Promise<TeammateWorkspace>;

/** The team's shared folders inside the working directory (the task board and the mailboxes). */
export const TEAM_SHARED_DIRS = [TASKS_DIR, TEAM_DIR] as const;

/**
 * The default factory: an isolated workspace per teammate (id = its agent id), `workspace.created`
 * at once, and on close `offerBack` (`workspace.changes` → `workspace.merge` → one
 * `workspace.conflict` per refused file) followed by `dispose`.
 */
export const isolatedTeammateWorkspace: WorkspaceFactory = async ({ name, agentId, base, emit }) => {
  const ws = await createIsolatedWorkspace(base, { id: agentId, task: `teammate ${name}` });
  await emit(createdEvent(ws, agentId));
  return {
    sandbox: withSharedDirs(ws.sandbox, base, TEAM_SHARED_DIRS),
    close: async (emitNow) => {
      try {
        const r = await offerBack(base, ws, agentId, emitNow);
        return { changed: r.changed, report: r.report, merged: r.applied, conflicts: r.conflicts.map((c) => c.path) };
      } finally {
        await ws.dispose();
      }
    },
  };
};

/**
 * `view` with the file operations under `workdir/<dir>` sent to `base` instead. Bash is left to
 * the view: a command reading `.tasks/` sees the copy's snapshot of it (the file tools and the
 * task tools see the live board).
 */
export function withSharedDirs(view: Sandbox, base: Sandbox, dirs: readonly string[]): Sandbox {
  const roots = dirs.map((d) => `${base.workdir}/${d}`);
  const shared = (p: string) => {
    const abs = resolvePath(base.workdir, p);
    return roots.some((r) => isInside(r, abs));
  };
  const pick = (p: string): SandboxFs => (shared(p) ? base.fs : view.fs);
  const fs: SandboxFs = {
    readFile: (p) => pick(p).readFile(p),
    writeFile: (p, c) => pick(p).writeFile(p, c),
    list: (d) => pick(d).list(d),
    stat: (p) => pick(p).stat(p),
    mkdir: (p, o) => pick(p).mkdir(p, o),
    rm: (p, o) => pick(p).rm(p, o),
    rename: async (a, b) => {
      if (shared(a) !== shared(b)) {
        // Across the boundary: the two sides live in different trees, so copy then remove.
        await pick(b).writeFile(b, await pick(a).readFile(a));
        await pick(a).rm(a);
        return;
      }
      await pick(a).rename(a, b);
    },
    realpath: (p) => pick(p).realpath(p),
    watch: (listener) => view.fs.watch(listener),
  };
  return { ...view, fs };
}
