/**
 * An MCP `tools/call` result as a tool result. The result is checked here, not trusted: a reply
 * that is not a `CallToolResult` is a clear error naming what was wrong, never a crash.
 *
 * Content blocks become text, in order: `text` as it is; `resource` with its text (or a line
 * naming a binary blob); `resource_link` as a line with its URI; `audio` as a line with its type
 * and size (the Messages API takes no audio). An `image` the API can read (PNG, JPEG, GIF, WebP,
 * up to 5 MB) goes to the model as a real image block after the text (`ToolOutcome.images`), with
 * a line in the text saying it is there; any other image is a line naming its type and size. A
 * result with no content but `structuredContent` shows that JSON. `isError: true` stays an error
 * result.
 */
import { z } from 'zod';
import type { ToolImage, ToolOutcome } from '../tools/tool.ts';

/** The image types the Messages API accepts, and its size limit per image (decoded). */
export const MODEL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const MODEL_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

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

/** An image the model can be shown, or why not. */
function modelImage(b: z.infer<typeof image>): ToolImage | string {
  const bytes = base64Bytes(b.data);
  if (!(MODEL_IMAGE_TYPES as readonly string[]).includes(b.mimeType)) return `[image ${b.mimeType}, ${bytes} bytes — not shown to the model: it reads only ${MODEL_IMAGE_TYPES.join(', ')}]`;
  if (bytes > MODEL_IMAGE_MAX_BYTES) return `[image ${b.mimeType}, ${bytes} bytes — not shown to the model: over the 5 MB an image may have]`;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b.data)) return `[image ${b.mimeType} — not shown to the model: its data is not base64]`;
  return { mediaType: b.mimeType, data: b.data };
}

function blockText(b: z.infer<typeof block>): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image': {
      const img = modelImage(b);
      return typeof img === 'string' ? img : `[image ${b.mimeType}, ${base64Bytes(b.data)} bytes — sent to the model as an image]`;
    }
    case 'audio':
      return `[audio ${b.mimeType}, ${base64Bytes(b.data)} bytes — not shown to the model: the Messages API takes no audio]`;
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
    return { content: `MCP server "${server}" answered with something that is not a tool result${where}: ${clipLine(issue?.message ?? 'invalid')} (method tools/call).`, isError: true, malformed: true };
  }
  const r = parsed.data;
  const parts = (r.content ?? []).map(blockText);
  const images = (r.content ?? []).flatMap((b) => (b.type === 'image' ? [modelImage(b)] : [])).filter((i): i is ToolImage => typeof i !== 'string');
  let content = parts.join('\n');
  if (!content && r.structuredContent) content = JSON.stringify(r.structuredContent);
  return { content: content || '(no output)', ...(r.isError ? { isError: true } : {}), ...(images.length ? { images } : {}) };
}

/** A failed call (down, timed out, JSON-RPC error) as an error result the model can read. */
export function mcpFailureOutcome(server: string, tool: string, message: string): ToolOutcome {
  return { content: `MCP tool ${tool} on server "${server}" failed: ${clipLine(message)}`, isError: true };
}

/** What a server said, as one line of at most `max` characters: a server's dump never floods the model's context. */
export function clipLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
