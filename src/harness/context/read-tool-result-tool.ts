/**
 * `read_tool_result`: reads back the original of a tool result that budget reduction or
 * microcompact replaced by a reference. Paged (offset / limit in characters), so reading a large
 * original does not blow the budget again.
 */
import { z } from 'zod';
import { buildTool } from '../tools/tool.ts';
import type { StoredResult } from './state.ts';

/** Where the originals live; the loop passes a view over its current `ContextState.stored`. */
export type StoredResultsReader = { get(toolUseId: string): StoredResult | undefined };

const inputSchema = z.object({
  tool_use_id: z.string().describe('The id named in the reference, e.g. "toolu_0003"'),
  offset: z.number().int().min(0).optional().describe('First character to return (default 0)'),
  limit: z.number().int().min(1).max(50_000).optional().describe('Characters to return (default 20000)'),
});

export type ReadToolResultInput = z.infer<typeof inputSchema>;

export const READ_TOOL_RESULT_DEFAULT_LIMIT = 20_000;

export function readToolResultTool(store: StoredResultsReader) {
  return buildTool<ReadToolResultInput>({
    name: 'read_tool_result',
    description:
      'Read the full output of an earlier tool call that was replaced in the conversation by a reference ' +
      '("[tool result stored as ref …]"). Pass the tool_use_id from the reference. Long outputs come in pages: ' +
      'pass offset to continue where the previous page ended.',
    inputSchema,
    maxResultChars: 51_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    async call(input) {
      const found = store.get(input.tool_use_id);
      if (!found) {
        return { content: `No stored tool result has id "${input.tool_use_id}". Copy the id exactly from a "[tool result stored as ref …]" reference.`, isError: true };
      }
      const offset = input.offset ?? 0;
      const limit = input.limit ?? READ_TOOL_RESULT_DEFAULT_LIMIT;
      const total = found.content.length;
      if (offset >= total && total > 0) {
        return { content: `Offset ${offset} is past the end: the result has ${total} characters.`, isError: true };
      }
      const page = found.content.slice(offset, offset + limit);
      const end = offset + page.length;
      const header = `Stored result of ${found.toolName ?? 'a tool'} (${found.toolUseId}), characters ${offset}–${end} of ${total}` +
        (end < total ? `; call again with offset ${end} for more` : '') + ':\n';
      return { content: header + page };
    },
  });
}

/** A reader over a state snapshot (or a getter for the live one). */
export function storedResultsOf(get: () => { stored: Record<string, StoredResult> }): StoredResultsReader {
  return { get: (id) => get().stored[id] };
}
