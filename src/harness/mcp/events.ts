/**
 * The trace events of the MCP layer, joined into `TraceEvent` in `trace.ts`. `mcp.call` carries
 * the raw JSON-RPC request and response so the MCP panel can show the wire, not a summary.
 */
import type { JsonRpcExchange } from './types.ts';

export type McpEventBody =
  | {
      /** A server finished the initialize handshake. */
      type: 'mcp.connect';
      server: string;
      transport: 'http' | 'sse' | 'in-page' | 'stdio';
      url?: string;
      serverName?: string;
      serverVersion?: string;
      ms: number;
    }
  | {
      /** What a connected server offers, as the model will see it. */
      type: 'mcp.tools';
      server: string;
      tools: { name: string; tool: string; description: string; readOnly: boolean }[];
      /** Tools left out (a name the API cannot take), each with why. */
      skipped: { tool: string; reason: string }[];
    }
  | {
      /** One `tools/call`: what went out and what came back. */
      type: 'mcp.call';
      server: string;
      tool: string;
      name: string;
      toolUseId?: string;
      ok: boolean;
      isError: boolean;
      ms: number;
      exchange: JsonRpcExchange;
    }
  | {
      /** A server could not be used: it is down, timed out, not approved, or answered garbage. */
      type: 'mcp.error';
      server: string;
      phase: 'config' | 'trust' | 'connect' | 'list' | 'call';
      message: string;
      tool?: string;
    };
