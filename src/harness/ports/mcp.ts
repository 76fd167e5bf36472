/**
 * The MCP port: `McpConnector` opens MCP servers and `McpConnection` lists and calls their tools,
 * so the harness never imports a transport. Re-exported by `../ports.ts`.
 */
import type { JsonRpcExchange, McpServerSpec } from '../mcp/types.ts';

/**
 * Opens MCP servers, so the harness never imports a transport. Implementations: `src/mcp/`
 * (the official SDK client over Streamable HTTP / SSE, and over messages to an in-page server
 * running in the user-code runtime or a Node worker thread).
 *
 * Contract:
 * - `connect` resolves once the initialize handshake is done, or rejects with an Error whose
 *   message says what failed in words a user can act on (refused, not found, timed out after
 *   `timeoutMs`, not an MCP server), on one line — never a validation dump. `signal` aborts it.
 * - `listTools` returns the raw `tools` of every `tools/list` page (the harness checks them);
 *   it rejects like `connect`.
 * - `callTool` never rejects: a transport failure, a timeout (`timeoutMs`), an abort or a
 *   JSON-RPC error is `{ ok: false, message }`; a reply is `{ ok: true, result }` with the raw
 *   result, unchecked. Both carry the raw JSON-RPC request and response when they exist.
 * - `close` ends the connection (stops an in-page server's worker); calling it twice is harmless.
 */
export interface McpConnector {
  /** Whether this host can start stdio servers (local processes): the headless runner can, a browser cannot. */
  readonly startsProcesses?: boolean;
  connect(spec: McpServerSpec, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<McpConnection>;
}

export interface McpConnection {
  readonly transport: 'http' | 'sse' | 'in-page' | 'stdio';
  readonly serverName?: string;
  readonly serverVersion?: string;
  listTools(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<unknown[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ ok: true; result: unknown; exchange: JsonRpcExchange } | { ok: false; message: string; exchange?: JsonRpcExchange }>;
  close(): Promise<void>;
}
