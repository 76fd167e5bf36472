/**
 * The MCP server side of an in-page server: a tiny JSON-RPC responder (initialize, ping,
 * tools/list, tools/call) around the tools the user's code registers with `server.tool(...)`.
 *
 * `serveMcp` is turned into TEXT with `toString()` and spliced into the worker's script (see
 * `worker-source.ts`), so it must be self-contained: no imports, no outer variables, plain JS
 * semantics. The user's code never sees the wire; it only defines tools:
 *
 *     server.name = 'calc';
 *     server.tool({ name: 'add', description: 'Adds a and b', inputSchema: { type: 'object',
 *       properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *       annotations: { readOnlyHint: true } }, ({ a, b }) => String(a + b));
 *
 * A handler may return a string (one text block), a `CallToolResult` (`{ content, isError }`),
 * or any other JSON value (shown as JSON text); a throw is an `isError` result with its message,
 * as MCP asks of tool failures. An unknown tool or method is a JSON-RPC error.
 */

export type ServerDefine = (server: unknown) => void;

export function serveMcp(define: ServerDefine, send: (message: unknown) => void): (message: unknown) => void {
  const tools = new Map();
  const server = {
    name: 'in-page',
    version: '1.0.0',
    tool(def: { name?: unknown; description?: unknown; inputSchema?: unknown; annotations?: unknown }, handler: unknown) {
      if (!def || typeof def.name !== 'string' || !def.name) throw new Error('server.tool needs a definition with a string "name"');
      if (typeof handler !== 'function') throw new Error(`server.tool("${def.name}") needs a handler function`);
      const entry: Record<string, unknown> = { name: def.name, inputSchema: def.inputSchema || { type: 'object', properties: {} } };
      if (typeof def.description === 'string') entry.description = def.description;
      if (def.annotations && typeof def.annotations === 'object') entry.annotations = def.annotations;
      tools.set(def.name, { entry, handler });
    },
  };
  define(server);
  const reply = (id: unknown, result: unknown) => send({ jsonrpc: '2.0', id, result });
  const fail = (id: unknown, code: number, message: string) => send({ jsonrpc: '2.0', id, error: { code, message } });
  const asResult = (value: unknown) => {
    if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
    if (value && typeof value === 'object' && Array.isArray((value as { content?: unknown }).content)) return value;
    return { content: [{ type: 'text', text: value === undefined ? '' : JSON.stringify(value) }] };
  };
  return (raw: unknown) => {
    const m = raw as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | null;
    if (!m || typeof m !== 'object' || typeof m.method !== 'string') return;
    const hasId = m.id !== undefined && m.id !== null;
    if (!hasId) return; // a notification (notifications/initialized, cancelled): nothing to answer
    const params = m.params || {};
    switch (m.method) {
      case 'initialize':
        return reply(m.id, {
          protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: String(server.name), version: String(server.version) },
        });
      case 'ping':
        return reply(m.id, {});
      case 'tools/list':
        return reply(m.id, { tools: [...tools.values()].map((t) => t.entry) });
      case 'tools/call': {
        const t = tools.get(params.name);
        if (!t) return fail(m.id, -32602, `Unknown tool: ${String(params.name)}`);
        Promise.resolve()
          .then(() => t.handler(params.arguments || {}))
          .then(
            (value) => reply(m.id, asResult(value)),
            (err) => reply(m.id, { content: [{ type: 'text', text: String((err && err.message) || err) }], isError: true }),
          );
        return;
      }
      default:
        return fail(m.id, -32601, `Method not found: ${m.method}`);
    }
  };
}
