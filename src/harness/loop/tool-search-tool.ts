/**
 * `tool_search` (Claude Code's `ToolSearch`): loads the schemas of deferred tools. Its
 * description lists the deferred tools by name in one line; a call with `select:a,b` loads those
 * by name, any other query loads the deferred tools whose name or description match its words.
 * A loaded tool's schema joins the tool list from the next request, appended at its end (the
 * tool pool site, `tool-pool.ts`), so each load breaks the cached prefix once and never reorders.
 */
import { z } from 'zod';
import { buildTool, type AnyTool } from '../tools/tool.ts';

export const TOOL_SEARCH_NAME = 'tool_search';

const inputSchema = z.object({
  query: z.string().min(1).describe('"select:name1,name2" to load tools by name, or keywords to search the deferred tools'),
  max_results: z.number().int().min(1).max(20).optional().describe('Most tools a keyword search loads (default 5)'),
});

export type ToolSearchInput = z.infer<typeof inputSchema>;

/** What the pool site gives the tool: the deferred tools not yet loaded, and the load itself. */
export type DeferredToolsPort = {
  /** Deferred tools still waiting (name order of the pool). */
  waiting(): readonly AnyTool[];
  /** Marks tools loaded; `why` says what asked (shown on the `tools.changed` event). */
  load(names: readonly string[], why: string): void;
};

/** The deferred tools a query names (`select:`) or matches (every word, in name or description). */
export function matchDeferred(query: string, waiting: readonly AnyTool[], max = 5): AnyTool[] {
  const q = query.trim();
  if (q.toLowerCase().startsWith('select:')) {
    const names = q.slice('select:'.length).split(',').map((s) => s.trim()).filter(Boolean);
    return waiting.filter((t) => names.includes(t.name));
  }
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const score = (t: AnyTool) => words.filter((w) => t.name.toLowerCase().includes(w) || t.description.toLowerCase().includes(w)).length;
  return waiting
    .map((t) => ({ t, s: score(t) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, max)
    .map((x) => x.t);
}

/** `listed`: the names in the one-line listing (fixed for the run, so the tool's own schema never changes). */
export function toolSearchTool(listed: readonly string[], port: DeferredToolsPort): AnyTool {
  return buildTool<ToolSearchInput>({
    name: TOOL_SEARCH_NAME,
    description:
      `Deferred tools (name only until loaded): ${listed.join(', ')}. ` +
      'To call one, first load its schema with this tool: query "select:<name>[,<name>…]", or keywords. ' +
      'Loaded tools can be called from your next turn.',
    inputSchema,
    maxResultChars: 4_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    isDestructive: () => false,
    async call(input) {
      const waiting = port.waiting();
      const found = matchDeferred(input.query, waiting, input.max_results ?? 5);
      if (found.length === 0) {
        const names = waiting.map((t) => t.name).join(', ');
        return { content: `No deferred tool matches ${JSON.stringify(input.query)}. Still deferred: ${names || '(none — every tool is loaded)'}.`, isError: true };
      }
      port.load(found.map((t) => t.name), `tool_search ${JSON.stringify(input.query)}`);
      return { content: `Loaded: ${found.map((t) => `${t.name} — ${t.description.split('\n')[0]}`).join('\n')}\nTheir schemas are attached from your next turn.` };
    },
  });
}
