/**
 * The run's tool pool, re-read before every model request. A run starts with `LoopInput.tools`;
 * when the caller passes `LoopInput.toolPool` (the page does: the person's custom tools), the loop
 * asks it again before each request, so a tool saved while the run works is in the *next*
 * request, judged by the same prefilter, permission pipeline and hooks at once. A change is
 * announced as one `tools.changed` event; an unchanged pool is never re-sent differently, so the
 * cached prefix (tools come first) breaks only when the tools really changed.
 */
import type { ToolSchema } from '../messages.ts';
import { prefilterTools } from '../permissions/prefilter.ts';
import type { SourcedRule } from '../permissions/types.ts';
import { toolSchemaOf, type AnyTool } from '../tools/tool.ts';
import type { TraceEventBody } from '../trace.ts';

/** What the model is offered from one pool: after the prefilter, with its request schemas. */
export type ToolPoolView = {
  pool: readonly AnyTool[];
  visible: AnyTool[];
  hidden: { name: string; rule: string }[];
  schemas: ToolSchema[];
  caps: Record<string, number>;
};

export type ToolPoolSite = {
  /** The pool in force now. */
  view(): ToolPoolView;
  /** Reads the live pool; when it changed, adopts it and returns the `tools.changed` event. */
  refresh(): Extract<TraceEventBody, { type: 'tools.changed' }> | null;
};

function viewOf(pool: readonly AnyTool[], always: readonly AnyTool[], rules: readonly SourcedRule[]): ToolPoolView {
  const { visible, hidden } = prefilterTools([...pool, ...always], rules);
  return { pool, visible, hidden, schemas: visible.map(toolSchemaOf), caps: Object.fromEntries(visible.map((t) => [t.name, t.maxResultChars])) };
}

/**
 * `initial` is the pool the run started with, `live` (optional) the caller's current pool,
 * `always` tools the loop itself adds after the pool (`read_tool_result`).
 */
export function createToolPoolSite(o: { initial: readonly AnyTool[]; live?: (() => readonly AnyTool[]) | undefined; always: readonly AnyTool[]; rules: readonly SourcedRule[] }): ToolPoolSite {
  let current = viewOf(o.initial, o.always, o.rules);
  return {
    view: () => current,
    refresh() {
      if (!o.live) return null;
      const next = o.live();
      const before = new Map(current.pool.map((t) => [t.name, t]));
      const after = new Map(next.map((t) => [t.name, t]));
      const added = [...after.keys()].filter((n) => !before.has(n));
      const removed = [...before.keys()].filter((n) => !after.has(n));
      // A tool object is rebuilt only when its definition changed (description, schema, flags, body).
      const changed = [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n));
      const reordered = added.length === 0 && removed.length === 0 && next.some((t, i) => current.pool[i]?.name !== t.name);
      if (!added.length && !removed.length && !changed.length && !reordered) return null;
      current = viewOf(next, o.always, o.rules);
      const hidden = current.hidden.filter((h) => added.includes(h.name));
      return { type: 'tools.changed', added, removed, changed, ...(hidden.length ? { hidden } : {}), visible: current.visible.map((t) => t.name) };
    },
  };
}
