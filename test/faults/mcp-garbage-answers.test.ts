/**
 * Issue 20 §3: a server that answers garbage reads like an error. JSON that is not JSON-RPC, a
 * `tools/list` with malformed entries, a `tools/call` result no schema accepts — each is one line
 * naming the server, the method and the first problem, for the user and for the model; one bad
 * tool entry costs that entry, not the server's other tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcp, type ToolResultBlock, type TraceEvent } from '../../src/harness/index.ts';
import { createNodeMcpConnector } from '../../src/mcp/node.ts';
import { textLine } from '../../src/cli/output.ts';
import { startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { drain, ofType, setup } from '../unit/loop-helpers.ts';

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});

const at = (path: string) => fixture.url.replace('/mcp', path);

function registryWith(...specs: mcp.McpServerSpec[]) {
  const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 5_000);
  for (const s of specs) expect(registry.set(s)).toBeNull();
  return registry;
}

const oneLine = (s: string) => expect(s).not.toMatch(/\n/);

describe('MCP answers that are not what the protocol says', () => {
  it('JSON that is not JSON-RPC: the connect fails with one line naming the server, initialize and the first problem', async () => {
    const registry = registryWith({ name: 'junk', transport: 'http', url: at('/garbage'), scope: 'user' });
    await registry.connectAll();
    const state = registry.get('junk')!;
    expect(state.status).toBe('failed');
    expect(state.error).toBe('server "junk" gave an invalid answer to initialize: jsonrpc: Invalid input: expected "2.0"');
    const [event] = registry.drainEvents();
    expect(event).toEqual({ type: 'mcp.error', server: 'junk', phase: 'connect', message: state.error });
    // The headless runner's line for it: one line, not a dump.
    const stamped: TraceEvent = { ...event!, seq: 0, ts: 0, agentId: 'main', turn: 0 };
    const line = textLine(stamped)!;
    oneLine(line);
    expect(line).toBe(`mcp: server "junk" not used (connect): ${state.error}`);
  });

  it('one malformed entry in tools/list is left out with its reason; the server keeps its other tools', async () => {
    const registry = registryWith({ name: 'sloppy', transport: 'http', url: at('/sloppy'), scope: 'user' });
    await registry.connectAll();
    const state = registry.get('sloppy')!;
    expect(state.status).toBe('connected');
    expect(registry.tools().map((t) => t.name)).toEqual(['mcp__sloppy__good', 'mcp__sloppy__mangled']);
    expect(state.skipped).toEqual([
      { tool: 'no-schema', reason: expect.stringMatching(/^not a tool definition \(inputSchema: /) },
      { tool: '#4', reason: expect.stringMatching(/^not a tool definition \(name: /) },
    ]);
    const listed = ofType(registry.drainEvents(), 'mcp.tools')[0]!;
    expect(listed.skipped.map((s) => s.tool)).toEqual(['no-schema', '#4']);
    await registry.closeAll();
  });

  it('a tools/call result that fails the schema reaches the model as one short line naming server, method and problem', async () => {
    const registry = registryWith({ name: 'sloppy', transport: 'http', url: at('/sloppy'), scope: 'user' });
    await registry.connectAll();
    const s = await setup([
      { content: [{ type: 'tool_use', name: 'mcp__sloppy__good', input: {} }, { type: 'tool_use', name: 'mcp__sloppy__mangled', input: {} }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    s.input.tools = [...s.input.tools, ...registry.tools()];
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    const [good, bad] = ofType(events, 'tool.result');
    expect([good!.content, good!.isError]).toEqual(['ok', false]);
    expect(bad!.isError).toBe(true);
    oneLine(bad!.content);
    expect(bad!.content.length).toBeLessThan(400);
    expect(bad!.content).toMatch(/^MCP server "sloppy" answered with something that is not a tool result at content\.0\.type: .* \(method tools\/call\)\.$/);
    // What the model got is that same line.
    const sent = result.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b): b is ToolResultBlock => b.type === 'tool_result');
    expect(sent[1]!.content).toBe(bad!.content);
    expect(ofType(events, 'mcp.error').map((e) => [e.server, e.phase, e.message])).toEqual([['sloppy', 'call', bad!.content]]);
    await registry.closeAll();
  });

  it('a failure message the model reads is one line of bounded length, whatever the server said', () => {
    const dump = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ code: 'invalid_type', path: ['x', i], message: 'bad' })), null, 2);
    const out = mcp.mcpFailureOutcome('s', 'mcp__s__t', dump);
    oneLine(out.content);
    expect(out.content.length).toBeLessThan(400);
  });
});
