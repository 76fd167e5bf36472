/**
 * An `McpConnection` (harness port) on the official SDK `Client`, over any SDK Transport. The
 * transport is wrapped in a `RecordingTransport`, so every call's raw JSON-RPC is kept for the
 * MCP panel. Errors become one-line sentences naming the server and the method: a timeout names
 * its limit, a JSON-RPC error its code, an answer that fails a schema its first problem.
 *
 * `tools/list` and `tools/call` results are taken raw (a schema that accepts any JSON) and
 * checked by the harness (`readToolList`, `mcpResultToOutcome`): the SDK's own check rejects a
 * whole tool list for one bad entry, and turns a bad result into a multi-line dump.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { mcp, type McpConnection } from '../harness/index.ts';
import { RecordingTransport } from './recording-transport.ts';
import { acceptingValidator } from './no-compile-validator.ts';
import { schemaProblem } from './answer-problem.ts';
import { withScopedSignal } from './scoped-signal.ts';

export const CLIENT_INFO = { name: 'harness-playground', version: '0.1.0' };

/** Any JSON-RPC result, unchecked: the harness checks it. */
const rawResult = z.unknown();
/** A `tools/list` page: the entries are checked one by one by the harness. */
const rawToolPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export function newClient(): Client {
  return new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: acceptingValidator });
}

type ConnectOpts = { timeoutMs: number; signal?: AbortSignal; /** The server's name in the config, for messages. */ server?: string };

/** Connects `client` over `transport` (initialize handshake) and wraps it as a harness connection. */
export async function connectSdk(transport: Transport, kind: McpConnection['transport'], opts: ConnectOpts, client: Client = newClient()): Promise<McpConnection> {
  const recorder = new RecordingTransport(transport);
  const where = (method: string) => ({ method, ...(opts.server !== undefined ? { server: opts.server } : {}) });
  try {
    await withScopedSignal(opts.signal, (signal) => client.connect(recorder, { timeout: opts.timeoutMs, ...(signal ? { signal } : {}) }));
  } catch (e) {
    await client.close().catch(() => undefined);
    throw new Error(describeError(e, opts.timeoutMs, where('initialize'), opts.signal), { cause: e });
  }
  const info = client.getServerVersion();
  return {
    transport: kind,
    ...(info?.name ? { serverName: info.name } : {}),
    ...(info?.version ? { serverVersion: info.version } : {}),
    async listTools(o) {
      const out: unknown[] = [];
      let cursor: string | undefined;
      // Pages, as the protocol allows; a server that never stops paging is cut at 50 pages.
      for (let page = 0; page < 50; page++) {
        try {
          const r = await withScopedSignal(o.signal, (signal) =>
            client.request({ method: 'tools/list', ...(cursor ? { params: { cursor } } : {}) }, rawToolPage, { timeout: o.timeoutMs, ...(signal ? { signal } : {}) }),
          );
          out.push(...r.tools);
          cursor = r.nextCursor;
        } catch (e) {
          throw new Error(describeError(e, o.timeoutMs, where('tools/list'), o.signal), { cause: e });
        }
        if (!cursor) break;
      }
      return out;
    },
    async callTool(name, args, o) {
      try {
        const result = await withScopedSignal(o.signal, (signal) =>
          client.request({ method: 'tools/call', params: { name, arguments: args } }, rawResult, { timeout: o.timeoutMs, ...(signal ? { signal } : {}) }),
        );
        return { ok: true, result, exchange: recorder.take(name, args) ?? { request: null } };
      } catch (e) {
        const exchange = recorder.take(name, args);
        // The tool result names the server and tool already (`mcpFailureOutcome`).
        return { ok: false, message: describeError(e, o.timeoutMs, { method: 'tools/call' }, o.signal), ...(exchange ? { exchange } : {}) };
      }
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/**
 * An SDK or network error as one sentence a user can act on. With `where`, an answer that is not
 * JSON-RPC or fails the method's schema names the server, the method and the first problem.
 * With the caller's `signal` aborted, it was a stop: the SDK reports an aborted request as a
 * JSON-RPC timeout (-32001), which would tell the model the server timed out.
 */
export function describeError(e: unknown, timeoutMs: number, where?: { server?: string; method: string }, signal?: AbortSignal): string {
  if (signal?.aborted) return 'stopped (the run was aborted)';
  const err = e as { code?: unknown; message?: unknown; name?: unknown; cause?: { code?: unknown; message?: unknown } };
  const message = typeof err?.message === 'string' ? err.message : String(e);
  const invalid = schemaProblem(e);
  if (invalid !== null) {
    const who = where?.server !== undefined ? `server "${where.server}"` : 'the server';
    return mcp.clipLine(`${who} gave an invalid answer${where ? ` to ${where.method}` : ''}: ${invalid}`);
  }
  if (err?.code === -32001 || /Request timed out/i.test(message)) return `no answer within ${timeoutMs / 1000} s (timed out)`;
  if (err?.name === 'AbortError' || /aborted/i.test(message)) return 'stopped (the run was aborted)';
  const cause = err?.cause && typeof err.cause.code === 'string' ? ` (${err.cause.code})` : '';
  if (/fetch failed|Failed to fetch|ECONNREFUSED|NetworkError/i.test(message + cause)) return `the server could not be reached${cause}: is it running, and is the URL right?`;
  if (typeof err?.code === 'number') return mcp.clipLine(`the server answered with JSON-RPC error ${err.code}: ${message.replace(/^MCP error -?\d+: /, '')}`);
  return mcp.clipLine(message);
}
