/**
 * An MCP `tools/call` result as a tool result. The result is checked here, not trusted: a reply
 * that is not a `CallToolResult` is a clear error naming what was wrong, never a crash.
 *
 * Content blocks become text, in order: `text` as it is; `resource` with its text (or a line
 * naming a binary blob); `resource_link` as a line with its URI; `image` / `audio` as a line with
 * their type and size, since a tool result in this harness carries text only. A result with no
 * content but `structuredContent` shows that JSON. `isError: true` stays an error result.
 */
import { z } from 'zod';
import type { ToolOutcome } from '../tools/tool.ts';

const text = z.object({ type: z.literal('text'), text: z.string() });
const image = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
const audio = z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() });
const resource = z.object({
  type: z.literal('resource'),
  resource: z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string().optional(), blob: z.string().optional() }),
});
const resourceLink = z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional(), mimeType: z.string().optional() });
const block = z.discriminatedUnion('type', [text, image, audio, resource, resourceLink]);

const callToolResult = z.object({
  content: z.array(block).optional(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

/** Bytes a base64 string decodes to (without decoding it). */
const base64Bytes = (b64: string) => Math.floor((b64.replace(/=+$/, '').length * 3) / 4);

function blockText(b: z.infer<typeof block>): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `[${b.type} ${b.mimeType}, ${base64Bytes(b.data)} bytes — not shown to the model: tool results here carry text only]`;
    case 'resource':
      if (b.resource.text !== undefined) return b.resource.text;
      return `[resource ${b.resource.uri}${b.resource.mimeType ? ` (${b.resource.mimeType})` : ''}, ${base64Bytes(b.resource.blob ?? '')} bytes of binary data]`;
    case 'resource_link':
      return `[resource link: ${b.uri}${b.name ? ` (${b.name})` : ''}]`;
  }
}

/** The tool result for a raw `tools/call` result from `server`; `malformed` when it was not a `CallToolResult`. */
export function mcpResultToOutcome(raw: unknown, server: string): ToolOutcome & { malformed?: true } {
  const parsed = callToolResult.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at ${issue.path.join('.')}` : '';
    return { content: `MCP server "${server}" answered with something that is not a tool result${where}: ${issue?.message ?? 'invalid'}.`, isError: true, malformed: true };
  }
  const r = parsed.data;
  const parts = (r.content ?? []).map(blockText);
  let content = parts.join('\n');
  if (!content && r.structuredContent) content = JSON.stringify(r.structuredContent);
  return { content: content || '(no output)', ...(r.isError ? { isError: true } : {}) };
}

/** A failed call (down, timed out, JSON-RPC error) as an error result the model can read. */
export function mcpFailureOutcome(server: string, tool: string, message: string): ToolOutcome {
  return { content: `MCP tool ${tool} on server "${server}" failed: ${message}`, isError: true };
}
