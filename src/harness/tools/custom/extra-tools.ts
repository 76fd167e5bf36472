/**
 * The seam every source of extra tools (custom tools here, MCP servers' tools) joins the pool
 * through: the base tools keep their place and order, extras follow in the order given, and an
 * extra whose name is already taken is left out with a note (never silently replacing a tool the
 * model already knows).
 */
import type { AnyTool } from '../tool.ts';

export type ExtraToolSource = { label: string; tools: readonly AnyTool[] };

export type PoolWithExtras = { tools: AnyTool[]; skipped: { name: string; source: string; reason: string }[] };

export function withExtraTools(base: readonly AnyTool[], sources: readonly ExtraToolSource[]): PoolWithExtras {
  const tools = [...base];
  const names = new Set(base.map((t) => t.name));
  const skipped: PoolWithExtras['skipped'] = [];
  for (const source of sources) {
    for (const tool of source.tools) {
      if (names.has(tool.name)) {
        skipped.push({ name: tool.name, source: source.label, reason: `a tool called "${tool.name}" is already in the pool` });
        continue;
      }
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return { tools, skipped };
}
