/**
 * MCP results as tool results: text, images, resources, isError, and replies that are not tool
 * results at all (a clear error, never a crash).
 */
import { describe, expect, it } from 'vitest';
import { mcp } from '../../src/harness/index.ts';

describe('mcpResultToOutcome', () => {
  it('joins text blocks in order', () => {
    expect(mcp.mcpResultToOutcome({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, 's')).toEqual({ content: 'a\nb' });
  });
  it('passes an image the model can read through as an image, with a line in the text saying so', () => {
    const r = mcp.mcpResultToOutcome({ content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, 's');
    expect(r.content).toMatch(/^look\n\[image image\/png, 3 bytes — sent to the model as an image\]$/);
    expect(r.images).toEqual([{ mediaType: 'image/png', data: 'AAAA' }]);
    expect(r.isError).toBeUndefined();
  });
  it('names an image the model cannot read (type, size, not base64) and sends no image', () => {
    for (const [data, mimeType, why] of [
      ['AAAA', 'image/svg+xml', /reads only image\/png/],
      ['A'.repeat(8 * 1024 * 1024), 'image/png', /over the 5 MB/],
      ['not base64!', 'image/png', /not base64/],
    ] as const) {
      const r = mcp.mcpResultToOutcome({ content: [{ type: 'image', data, mimeType }] }, 's');
      expect(r.content).toMatch(why);
      expect(r.images).toBeUndefined();
    }
  });
  it('embeds a text resource, names a binary one and a resource link', () => {
    const r = mcp.mcpResultToOutcome(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AAAAAA==' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
        ],
      },
      's',
    );
    expect(r.content).toBe('hello\n[resource file:///b.bin (application/octet-stream), 4 bytes of binary data]\n[resource link: file:///c (c)]');
  });
  it('keeps isError as an error result', () => {
    expect(mcp.mcpResultToOutcome({ content: [{ type: 'text', text: 'disk full' }], isError: true }, 's')).toEqual({ content: 'disk full', isError: true });
  });
  it('shows structuredContent when there is no content, and says when there is nothing', () => {
    expect(mcp.mcpResultToOutcome({ content: [], structuredContent: { n: 1 } }, 's').content).toBe('{"n":1}');
    expect(mcp.mcpResultToOutcome({ content: [] }, 's').content).toBe('(no output)');
  });
  it('a reply that is not a tool result is a malformed error naming where', () => {
    const r = mcp.mcpResultToOutcome({ content: 'nope' }, 'calc');
    expect(r.isError).toBe(true);
    expect(r.malformed).toBe(true);
    expect(r.content).toMatch(/MCP server "calc" answered with something that is not a tool result at content/);
    expect(mcp.mcpResultToOutcome(null, 'calc').malformed).toBe(true);
    expect(mcp.mcpResultToOutcome({ content: [{ type: 'video' }] }, 'calc').malformed).toBe(true);
  });
});
