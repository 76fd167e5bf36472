/**
 * The run's tool pool, re-read before every model request. A run starts with `LoopInput.tools`;
 * when the caller passes `LoopInput.toolPool` (the page does: the person's custom tools), the loop
 * asks it again before each request, so a tool saved while the run works is in the *next*
 * request, judged by the same prefilter, permission pipeline and hooks at once. A change is
 * announced as one `tools.changed` event; an unchanged pool is never re-sent differently, so the
 * cached prefix (tools come first) breaks only when the tools really changed.
 *
 * Deferred tools (`LoopInput.deferTools`): their names are listed in `tool_search`'s description
 * and their schemas stay out of the request until the model loads them; a loaded tool is
 * appended after every other schema (never reordering), announced as `tools.changed` with
 * `loaded` and `why`. A call to a deferred tool not loaded yet is refused, naming the load.
 */
import { z } from 'zod';
import type { ToolSchema } from '../messages.ts';
import { prefilterTools } from '../permissions/prefilter.ts';
import type { SourcedRule } from '../permissions/types.ts';
import { toolSchemaOf, type AnyTool } from '../tools/tool.ts';
import type { TraceEventBody } from '../trace.ts';
import { toolSearchTool } from './tool-search-tool.ts';

/** What the model is offered from one pool: after the prefilter, with its request schemas. */
export type ToolPoolView = {
  pool: readonly AnyTool[];
  /** The tools a call can name, in request order (a deferred tool not loaded yet is a stub that refuses). */
  visible: AnyTool[];
  hidden: { name: string; rule: string }[];
  /** The request's `tools`, in order: derived on first read, then the same array. */
  readonly schemas: ToolSchema[];
  caps: Record<string, number>;
  /** Deferred tools not loaded yet (names only in the request). */
  deferred: string[];
  /** How many schemas at the end are loaded deferred tools: they stay last, unsorted (`appendedTools`). */
  appended: number;
};

export type ToolPoolSite = {
  /** The pool in force now. */
  view(): ToolPoolView;
  /** Reads the live pool and the tools loaded since; when either changed, adopts it and returns the `tools.changed` event. */
  refresh(): Extract<TraceEventBody, { type: 'tools.changed' }> | null;
};

/** A deferred tool's stand-in until it is loaded: same name, refuses with the way to load it. */
function notLoadedYet(tool: AnyTool): AnyTool {
  const message = `${tool.name} is deferred: its schema is not loaded. Load it first with tool_search (query "select:${tool.name}"), then call it.`;
  return { ...tool, inputSchema: z.any(), validateInput: async () => ({ ok: false, message }) };
}

type Deferral = { names: ReadonlySet<string>; loaded: readonly string[]; search: AnyTool | null };

function viewOf(pool: readonly AnyTool[], always: readonly AnyTool[], rules: readonly SourcedRule[], d: Deferral): ToolPoolView {
  const { visible: all, hidden } = prefilterTools([...pool, ...always], rules);
  const isWaiting = (t: AnyTool) => d.names.has(t.name) && !d.loaded.includes(t.name);
  const anyDeferred = d.search !== null && all.some((t) => d.names.has(t.name));
  // Loaded in the order they were loaded: a load appends, it never moves an earlier schema.
  const loadedTools = anyDeferred ? d.loaded.flatMap((n) => all.filter((t) => t.name === n)) : [];
  const offered = anyDeferred ? [...all.filter((t) => !d.names.has(t.name)), d.search!, ...loadedTools] : all;
  const waiting = anyDeferred ? all.filter(isWaiting) : [];
  const visible = [...offered, ...waiting.map(notLoadedYet)];
  let schemas: ToolSchema[] | undefined;
  return {
    pool,
    visible,
    hidden,
    // Built at the first request that sends them, not with the view: a run's first event (`run.start`)
    // sends none, and every tool's JSON Schema was ~10 ms of a cold page's first Step.
    get schemas() {
      return (schemas ??= offered.map(toolSchemaOf));
    },
    caps: Object.fromEntries(visible.map((t) => [t.name, t.maxResultChars])),
    deferred: waiting.map((t) => t.name),
    appended: loadedTools.length,
  };
}

/**
 * `initial` is the pool the run started with, `live` (optional) the caller's current pool,
 * `always` tools the loop itself adds after the pool (`read_tool_result`), `defer` the names
 * kept deferred (see `deferred-tools.ts`; absent or empty: every schema is sent).
 */
export function createToolPoolSite(o: { initial: readonly AnyTool[]; live?: (() => readonly AnyTool[]) | undefined; always: readonly AnyTool[]; rules: readonly SourcedRule[]; defer?: readonly string[] | undefined }): ToolPoolSite {
  const names = new Set(o.defer ?? []);
  const loaded: string[] = [];
  let pending: { names: string[]; why: string[] } = { names: [], why: [] };
  // The listing is fixed at the start (tools a bare deny hides are not listed): the tool's schema never changes.
  const listed = prefilterTools(o.initial, o.rules).visible.filter((t) => names.has(t.name)).map((t) => t.name);
  let current: ToolPoolView;
  const search =
    listed.length > 0
      ? toolSearchTool(listed, {
          waiting: () => current.pool.filter((t) => current.deferred.includes(t.name) && !pending.names.includes(t.name)),
          load(ns, why) {
            pending = { names: [...pending.names, ...ns.filter((n) => !pending.names.includes(n))], why: [...pending.why, why] };
          },
        })
      : null;
  const deferral = (): Deferral => ({ names, loaded, search });
  current = viewOf(o.initial, o.always, o.rules, deferral());
  return {
    view: () => current,
    refresh() {
      const next = o.live ? o.live() : current.pool;
      const before = new Map(current.pool.map((t) => [t.name, t]));
      const after = new Map(next.map((t) => [t.name, t]));
      const added = [...after.keys()].filter((n) => !before.has(n));
      const removed = [...before.keys()].filter((n) => !after.has(n));
      // A tool object is rebuilt only when its definition changed (description, schema, flags, body).
      const changed = [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n));
      const reordered = added.length === 0 && removed.length === 0 && next.some((t, i) => current.pool[i]?.name !== t.name);
      const newlyLoaded = pending.names.filter((n) => !loaded.includes(n) && after.has(n));
      const why = pending.why.join('; ');
      pending = { names: [], why: [] };
      if (!added.length && !removed.length && !changed.length && !reordered && !newlyLoaded.length) return null;
      loaded.push(...newlyLoaded);
      current = viewOf(next, o.always, o.rules, deferral());
      const hidden = current.hidden.filter((h) => added.includes(h.name));
      return {
        type: 'tools.changed',
        added,
        removed,
        changed,
        ...(hidden.length ? { hidden } : {}),
        ...(newlyLoaded.length ? { loaded: newlyLoaded, why } : {}),
        visible: current.schemas.map((s) => s.name),
      };
    },
  };
}
