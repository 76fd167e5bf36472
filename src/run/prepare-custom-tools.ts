/**
 * A scenario's custom tools join the pool (through the general extra-tools seam) only when the
 * scenario is trusted: like its hooks, an untrusted document's tools are neither offered to the
 * model nor run. Built-ins and the user's own edits are trusted by the caller.
 *
 * Live: the page passes the definitions as a function (the Tools tab edits them while a run
 * works); `liveCustomTools` builds each definition once and hands back the same tool object
 * until that definition changes, so the loop's per-request pool read (`LoopInput.toolPool`)
 * sees a change exactly when there is one.
 */
import type { UserToolRunner } from '../harness/ports.ts';
import type { AnyTool } from '../harness/tools/index.ts';
import { customTool } from '../harness/tools/index.ts';
import type { CustomToolDefinition } from '../harness/tools/index.ts';
import { withExtraTools } from '../harness/tools/index.ts';

export type LiveCustomTools = {
  /** The tools of the definitions as they are now (none when untrusted). */
  current(): AnyTool[];
  /** Whether `tool` is one of these (built here). */
  isCustom(tool: AnyTool): boolean;
};

export function liveCustomTools(definitions: () => readonly CustomToolDefinition[] | undefined, trusted: boolean, runner?: UserToolRunner): LiveCustomTools {
  const built = new Map<string, AnyTool>();
  const mine = new WeakSet<AnyTool>();
  return {
    current() {
      if (!trusted) return [];
      const tools = (definitions() ?? []).map((d) => {
        const key = JSON.stringify(d);
        let t = built.get(key);
        if (!t) {
          t = customTool(d, runner ? { runner } : {});
          built.set(key, t);
          mine.add(t);
        }
        return t;
      });
      return tools;
    },
    isCustom: (t) => mine.has(t),
  };
}

/** `base` with the custom tools after it (a name already taken is skipped, never replaced). */
export function withCustomTools(base: AnyTool[], custom: LiveCustomTools): AnyTool[] {
  const tools = custom.current();
  if (tools.length === 0) return base;
  return withExtraTools(base, [{ label: 'custom tools', tools }]).tools;
}

/**
 * The live pool of a run: `pool` (as the run started) with its custom tools replaced by the
 * current ones, in their place — after the base tools, before `todo_write`, `agent` and the team
 * tools — so an unchanged set keeps the request's tool order (and the cached prefix) as it was.
 */
export function livePool(pool: readonly AnyTool[], custom: LiveCustomTools, anchor: string): () => AnyTool[] {
  const fixed = pool.filter((t) => !custom.isCustom(t));
  const at = pool.findIndex((t) => custom.isCustom(t));
  const anchorAt = fixed.findIndex((t) => t.name === anchor);
  const insertAt = at >= 0 ? at : anchorAt >= 0 ? anchorAt : fixed.length;
  return () => {
    // Checked against the whole fixed pool (a clash is skipped, never replaces), then put in place.
    const added = withExtraTools(fixed, [{ label: 'custom tools', tools: custom.current() }]).tools.slice(fixed.length);
    return [...fixed.slice(0, insertAt), ...added, ...fixed.slice(insertAt)];
  };
}
