/**
 * Where an isolated workspace keeps its working tree inside the base sandbox, and the two-way
 * mapping between the paths the agent uses (`/home/project/…`, as everywhere) and the private
 * copy (`/.ws/<id>/home/project/…`). Only paths inside the working directory are mapped: the
 * home directory and `/tmp` stay shared, as they are on a machine with several git worktrees.
 */
import { isInside, relativeTo, resolvePath } from '../util/paths.ts';

/** The folder under which every workspace's private tree lives; outside the working directory, so no tool walks into it by accident. */
export const WORKSPACES_ROOT = '/.ws';

export type PathMap = {
  /** The private copy of the working directory. */
  root: string;
  /** An agent path (absolute or relative to the workdir) → the path in the base sandbox. */
  toBase(path: string): string;
  /** A base path → the agent's view of it (unchanged when outside the private copy). */
  toAgent(path: string): string;
  /** Rewrites literal mentions of the working directory in a command or its output. */
  rewriteIn(text: string): string;
  rewriteOut(text: string): string;
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function pathMap(workdir: string, id: string): PathMap {
  const root = `${WORKSPACES_ROOT}/${id}${workdir}`;
  // A mention ends at a path separator, whitespace, quote, shell operator or the end of text.
  const inRe = new RegExp(`${escape(workdir)}(?=$|[/\\s'"\`;|&()<>:=,])`, 'g');
  const outRe = new RegExp(escape(root), 'g');
  return {
    root,
    toBase(path) {
      const abs = resolvePath(workdir, path);
      return isInside(workdir, abs) ? (abs === workdir ? root : `${root}/${relativeTo(workdir, abs)}`) : abs;
    },
    toAgent(path) {
      if (!isInside(root, path)) return path;
      return path === root ? workdir : `${workdir}/${relativeTo(root, path)}`;
    },
    rewriteIn: (text) => text.replace(inRe, root),
    rewriteOut: (text) => text.replace(outRe, workdir),
  };
}
