/**
 * The real SDK client against real servers: the loopback fixture (Streamable HTTP, built with the
 * same SDK), a port nobody listens on, a server that answers garbage, and in-page servers run in
 * Node worker threads through `MessageTransport`. Then whole runs: the scripted model calls MCP
 * tools through the loop, with rules and a PreToolUse hook applied as for built-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, mcp, settings as harnessSettings, WORKDIR, type Message, type ToolResultBlock, type TraceEvent } from '../../src/harness/index.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { startFakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { createNodeMcpConnector } from '../../src/mcp/node.ts';
import { PICTURE_PNG, startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { drain, ofType, setup } from './loop-helpers.ts';
import { freePort } from '../fixtures/free-port.ts';

/** The tool_result of the picture call in a request's messages. */
function pictureResult(messages: readonly Message[]): ToolResultBlock | undefined {
  return messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).find((b): b is ToolResultBlock => b.type === 'tool_result' && Array.isArray(b.content) && b.content.some((c) => c.type === 'image'));
}

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});

const CALC = `
server.name = 'calc';
server.tool({ name: 'add', description: 'Adds a and b.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, annotations: { readOnlyHint: true } },
  ({ a, b }) => String(a + b));
server.tool({ name: 'wipe', description: 'Deletes everything.' }, () => 'wiped');
server.tool({ name: 'boom', description: 'Throws.' }, () => { throw new Error('kaboom'); });
server.tool({ name: 'bad', description: 'Returns a wrong shape.' }, () => ({ content: [{ type: 'video' }] }));
`;

function registryWith(...specs: mcp.McpServerSpec[]) {
  const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 5_000);
  for (const s of specs) expect(registry.set(s)).toBeNull();
  return registry;
}

describe('the loopback server over Streamable HTTP', () => {
  it('connects, lists tools with their names and flags, and calls them with the raw JSON-RPC kept', async () => {
    const registry = registryWith({ name: 'loop back', transport: 'http', url: fixture.url, scope: 'user' });
    await registry.connectAll();
    const state = registry.get('loop back')!;
    expect(state.status).toBe('connected');
    expect(state.serverName).toBe('loopback-fixture');
    const tools = registry.tools();
    expect(tools.map((t) => t.name)).toEqual(['mcp__loop_back__echo', 'mcp__loop_back__add', 'mcp__loop_back__picture', 'mcp__loop_back__fails', 'mcp__loop_back__slow']);
    const add = tools.find((t) => t.name === 'mcp__loop_back__add')!;
    expect(add.isReadOnly({})).toBe(true);
    expect(add.isDestructive({})).toBe(true);
    expect(add.inputJsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    const events = registry.drainEvents();
    expect(events.map((e) => e.type)).toEqual(['mcp.connect', 'mcp.tools']);
    await registry.closeAll();
  });

  it('a whole run: the model calls an MCP tool; mcp.call carries the raw request and response', async () => {
    const registry = registryWith({ name: 'lb', transport: 'http', url: fixture.url, scope: 'user' });
    await registry.connectAll();
    const s = await setup(
      [
        { content: [{ type: 'tool_use', name: 'mcp__lb__echo', input: { text: 'hi' } }, { type: 'tool_use', name: 'mcp__lb__picture', input: {} }, { type: 'tool_use', name: 'mcp__lb__fails', input: {} }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
      { input: { preludeEvents: registry.drainEvents() } },
    );
    s.input.tools = [...s.input.tools, ...registry.tools()];
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    expect(events.slice(1, 3).map((e) => e.type)).toEqual(['mcp.connect', 'mcp.tools']);
    const calls = ofType(events, 'mcp.call');
    expect(calls.map((c) => [c.tool, c.ok, c.isError])).toEqual([
      ['echo', true, false],
      ['picture', true, false],
      ['fails', true, true],
    ]);
    expect(calls[0]!.exchange.request).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    expect(calls[0]!.exchange.response).toMatchObject({ jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'echo: hi' }] } });
    const results = ofType(events, 'tool.result');
    expect(results.map((r) => r.content)).toEqual(['echo: hi', expect.stringMatching(/^here it is\n\[image image\/png, \d+ bytes — sent to the model as an image/), 'the disk is full']);
    expect(results[2]!.isError).toBe(true);
    // The picture reaches the model as a real image block inside its tool_result (base64 source).
    expect(results[1]!.images).toEqual([{ mediaType: 'image/png', data: PICTURE_PNG }]);
    expect(pictureResult(ofType(events, 'model.request').at(-1)!.request.messages)).toEqual({
      type: 'tool_result',
      tool_use_id: results[1]!.toolUseId,
      content: [
        { type: 'text', text: results[1]!.content },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PICTURE_PNG } },
      ],
    });
    await registry.closeAll();
  });

  it('on the wire: the SDK request after an MCP image carries the image block, and the context counts it', async () => {
    const server = await startFakeAnthropicServer();
    try {
      server.setTurns([{ content: [{ type: 'tool_use', name: 'mcp__lb__picture', input: {} }] }, { content: [{ type: 'text', text: 'a tiny picture' }] }]);
      const registry = registryWith({ name: 'lb', transport: 'http', url: fixture.url, scope: 'user' });
      await registry.connectAll();
      const s = await setup([{ content: [] }]);
      s.deps.model = createAnthropicClient({ apiKey: 'sk-test', baseURL: server.url });
      s.input.tools = [...s.input.tools, ...registry.tools()];
      const { events, result } = await drain(s.input, s.deps);
      expect(result.reason).toBe('completed');
      const bodies = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.body as { messages: Message[] });
      expect(pictureResult(bodies[1]!.messages)?.content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PICTURE_PNG } });
      // The estimate counts the image (its cap), not its base64 characters.
      const [first, second] = ofType(events, 'context.assembled');
      expect(second!.parts.messages - first!.parts.messages).toBeGreaterThanOrEqual(context.IMAGE_TOKENS_ESTIMATE);
      await registry.closeAll();
    } finally {
      await server.close();
    }
  });

  it('a call that takes longer than the server timeout is an error result; the run goes on', async () => {
    const registry = registryWith({ name: 'lb', transport: 'http', url: fixture.url, scope: 'user', timeoutMs: 300 });
    await registry.connectAll();
    const s = await setup([{ content: [{ type: 'tool_use', name: 'mcp__lb__slow', input: { ms: 3000 } }] }, { content: [{ type: 'text', text: 'ok' }] }]);
    s.input.tools = [...s.input.tools, ...registry.tools()];
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    const r = ofType(events, 'tool.result')[0]!;
    expect(r).toMatchObject({ isError: true, content: expect.stringMatching(/mcp__lb__slow on server "lb" failed: no answer within 0.3 s \(timed out\)/) });
    expect(ofType(events, 'mcp.error')[0]).toMatchObject({ phase: 'call', server: 'lb' });
    await registry.closeAll();
  });
});

describe('servers that cannot be used', () => {
  it('a server that is down fails to connect with a clear message; it has no tools', async () => {
    const port = await freePort();
    const registry = registryWith({ name: 'down', transport: 'http', url: `http://127.0.0.1:${port}/mcp`, scope: 'user' });
    await registry.connectAll();
    const state = registry.get('down')!;
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/could not be reached/);
    expect(registry.tools()).toEqual([]);
    expect(registry.drainEvents()).toEqual([{ type: 'mcp.error', server: 'down', phase: 'connect', message: state.error }]);
  });

  it('a server that answers garbage fails with a message, not a crash', async () => {
    const registry = registryWith({ name: 'junk', transport: 'http', url: fixture.url.replace('/mcp', '/garbage'), scope: 'user' });
    await registry.connectAll();
    const state = registry.get('junk')!;
    expect(state.status).toBe('failed');
    expect(state.error).toBeTruthy();
  });

  it('a refused Streamable HTTP POST falls back to SSE, and says both failed', async () => {
    const registry = registryWith({ name: 'old', transport: 'http', url: fixture.url.replace('/mcp', '/old-sse'), scope: 'user' });
    await registry.connectAll();
    expect(registry.get('old')!.error).toMatch(/Streamable HTTP was refused .*405.* and SSE failed too/);
  });
});

describe('in-page servers (Node worker threads, the real SDK client over MessageTransport)', () => {
  it('connects, lists, calls; a throw is an isError result and a wrong shape is a malformed error', async () => {
    const registry = registryWith({ name: 'calc', transport: 'in-page', source: CALC, scope: 'user' });
    await registry.connectAll();
    expect(registry.get('calc')).toMatchObject({ status: 'connected', serverName: 'calc' });
    const s = await setup([
      {
        content: [
          { type: 'tool_use', name: 'mcp__calc__add', input: { a: 2, b: 3 } },
          { type: 'tool_use', name: 'mcp__calc__boom', input: {} },
          { type: 'tool_use', name: 'mcp__calc__bad', input: {} },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    s.input.tools = [...s.input.tools, ...registry.tools()];
    const { events, result } = await drain(s.input, s.deps);
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'tool.result').map((r) => [r.content, r.isError])).toEqual([
      ['5', false],
      ['kaboom', true],
      [expect.stringMatching(/^MCP (tool mcp__calc__bad on server "calc" failed|server "calc" answered with something that is not a tool result)/), true],
    ]);
    expect(ofType(events, 'mcp.call')[0]!.exchange.response).toMatchObject({ result: { content: [{ type: 'text', text: '5' }] } });
    expect(ofType(events, 'mcp.error').map((e) => e.tool)).toEqual(['mcp__calc__bad']);
    await registry.closeAll();
  });

  it('code that does not compile or throws at the top fails the connect with its message', async () => {
    const registry = registryWith(
      { name: 'syntax', transport: 'in-page', source: 'server.tool({ name: ', scope: 'user' },
      { name: 'throws', transport: 'in-page', source: 'throw new Error("no tools today")', scope: 'user' },
    );
    await registry.connectAll();
    expect(registry.get('syntax')!.error).toMatch(/the server's code failed: SyntaxError/);
    expect(registry.get('throws')!.error).toMatch(/the server's code failed: .*no tools today/);
  });
});

describe('rules and hooks apply to MCP tools as to built-ins', () => {
  async function runWith(settingsDoc: unknown, turns: Parameters<typeof setup>[0]) {
    const registry = registryWith({ name: 'calc', transport: 'in-page', source: CALC, scope: 'user' });
    await registry.connectAll();
    const parsed = harnessSettings.parseSettings(JSON.stringify(settingsDoc), 'json');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const merged = harnessSettings.mergeSettings([{ source: 'project', settings: parsed.settings }]);
    const s = await setup(turns, { input: { permissions: harnessSettings.permissionContextOf(merged, WORKDIR) } });
    s.input.tools = [...s.input.tools, ...registry.tools()];
    if (Object.keys(merged.hooks).length) s.deps.hooks = { config: merged.hooks, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' } };
    const out = await drain(s.input, s.deps);
    await registry.closeAll();
    return out;
  }
  const decisions = (events: TraceEvent[]) => ofType(events, 'permission.decision').map((d) => d.decision);

  it('a deny rule on one tool refuses it (the server never sees the call); an allow rule lets another through', async () => {
    const { events } = await runWith({ permissions: { allow: ['mcp__calc__add'], deny: ['mcp__calc__wipe'] } }, [
      { content: [{ type: 'tool_use', name: 'mcp__calc__add', input: { a: 1, b: 1 } }, { type: 'tool_use', name: 'mcp__calc__wipe', input: {} }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(decisions(events)).toEqual(['allow', 'deny']);
    expect(ofType(events, 'mcp.call').map((c) => c.tool)).toEqual(['add']);
  });

  it('a bare server rule (mcp__calc) hides every tool of the server from the model', async () => {
    const { events } = await runWith({ permissions: { deny: ['mcp__calc'] } }, [{ content: [{ type: 'text', text: 'nothing to do' }] }]);
    const pre = ofType(events, 'permission.prefilter')[0]!;
    expect(pre.hidden.map((h) => h.name)).toEqual(['mcp__calc__add', 'mcp__calc__wipe', 'mcp__calc__boom', 'mcp__calc__bad']);
  });

  it('with no rule, a not read-only MCP tool asks, and headless that is a deny', async () => {
    const { events } = await runWith({}, [{ content: [{ type: 'tool_use', name: 'mcp__calc__wipe', input: {} }] }, { content: [{ type: 'text', text: 'ok' }] }]);
    expect(decisions(events)).toEqual(['deny']);
    expect(ofType(events, 'mcp.call')).toEqual([]);
  });

  it('a PreToolUse hook with an mcp__ regex matcher blocks the call before the rules', async () => {
    const { events } = await runWith(
      {
        permissions: { allow: ['mcp__calc__*'] },
        hooks: { PreToolUse: [{ matcher: 'mcp__calc__.*', hooks: [{ type: 'command', command: "echo 'no MCP today' >&2; exit 2" }] }] },
      },
      [{ content: [{ type: 'tool_use', name: 'mcp__calc__add', input: { a: 1, b: 2 } }] }, { content: [{ type: 'text', text: 'ok' }] }],
    );
    expect(ofType(events, 'hook.run')[0]).toMatchObject({ exitCode: 2 });
    expect(decisions(events)).toEqual(['deny']);
    expect(ofType(events, 'tool.result')[0]!.content).toMatch(/no MCP today/);
    expect(ofType(events, 'mcp.call')).toEqual([]);
  });
});
