/**
 * What the harness knows about MCP servers: how each is configured, what it offers, and what one
 * call exchanged. Plain JSON throughout, so configs travel in scenarios and exchanges in the trace.
 */

/** Where a server's config came from; `project` servers (a `.mcp.json`) need the user's approval. */
export type McpServerScope = 'project' | 'scenario' | 'user';

/**
 * One server. `http`: Streamable HTTP at `url`, falling back to SSE when the server answers the
 * first POST with 4xx (as the SDK recommends); `sse`: SSE only; `in-page`: `source` is JavaScript
 * run in the isolated user-code runtime (a sandboxed worker in the browser, a worker thread in
 * Node), answering JSON-RPC over messages.
 */
export type McpServerSpec = {
  /** As written in the config; the tool prefix uses its sanitised form. */
  name: string;
  transport: 'http' | 'sse' | 'in-page' | 'stdio';
  url?: string;
  /** A stdio server's command, its arguments and extra environment (`.mcp.json` `command`, `args`, `env`); only a Node host can start it. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Extra request headers for remote servers (`.mcp.json` `headers`). */
  headers?: Record<string, string>;
  source?: string;
  scope: McpServerScope;
  /** Longest wait for one call (default {@link DEFAULT_MCP_CALL_TIMEOUT_MS}). */
  timeoutMs?: number;
};

/** The project file that declares MCP servers (Claude Code's name), at the working directory's root. */
export const MCP_JSON = '.mcp.json';

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;

/** A tool as the server lists it (`tools/list`), before naming. */
export type McpToolInfo = {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
};

/** One JSON-RPC request and the response to it, exactly as they crossed the transport. */
export type JsonRpcExchange = { request: unknown; response?: unknown };
