/**
 * Remote MCP servers by URL with the SDK's client transports: Streamable HTTP first, and when
 * that is refused with a 4xx (an older server), SSE — the fallback the SDK documents. `sse` in
 * the config goes straight to SSE. `fetch` is injectable (tests; the page's own by default).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { McpConnection, mcp } from '../harness/index.ts';
import { connectSdk } from './sdk-connection.ts';

type Opts = { timeoutMs: number; signal?: AbortSignal };

export async function connectRemote(spec: mcp.McpServerSpec, opts: Opts): Promise<McpConnection> {
  if (!spec.url) throw new Error(`server "${spec.name}" has no URL`);
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    throw new Error(`"${spec.url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${spec.url}" is not an http(s) URL`);
  const requestInit: RequestInit = spec.headers ? { headers: spec.headers } : {};
  const named = { ...opts, server: spec.name };
  if (spec.transport === 'sse') return connectSdk(new SSEClientTransport(url, { requestInit }), 'sse', named);
  try {
    return await connectSdk(new StreamableHTTPClientTransport(url, { requestInit }), 'http', named);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // Only a refusal of the Streamable HTTP POST (4xx) suggests an SSE-only server; a server that
    // is down or timed out would fail the same way over SSE.
    if (!/\b4\d\d\b/.test(message)) throw e;
    try {
      return await connectSdk(new SSEClientTransport(url, { requestInit }), 'sse', named);
    } catch (e2) {
      throw new Error(`Streamable HTTP was refused (${message}) and SSE failed too: ${e2 instanceof Error ? e2.message : String(e2)}`, { cause: e2 });
    }
  }
}
