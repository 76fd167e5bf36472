/**
 * An `McpConnection` (harness port) on the official SDK `Client`, over any SDK Transport. The
 * transport is wrapped in a `RecordingTransport`, so every call's raw JSON-RPC is kept for the
 * MCP panel. Errors become sentences: a timeout names its limit, a JSON-RPC error its code.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConnection } from '../harness/index.ts';
import { RecordingTransport } from './recording-transport.ts';
import { acceptingValidator } from './no-compile-validator.ts';

export const CLIENT_INFO = { name: 'harness-playground', version: '0.1.0' };

export function newClient(): Client {
  return new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: acceptingValidator });
}

/** Connects `client` over `transport` (initialize handshake) and wraps it as a harness connection. */
export async function connectSdk(
  transport: Transport,
  kind: McpConnection['transport'],
  opts: { timeoutMs: number; signal?: AbortSignal },
  client: Client = newClient(),
): Promise<McpConnection> {
  const recorder = new RecordingTransport(transport);
  try {
    await client.connect(recorder, { timeout: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  } catch (e) {
    await client.close().catch(() => undefined);
    throw new Error(describeError(e, opts.timeoutMs), { cause: e });
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
          const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: o.timeoutMs, ...(o.signal ? { signal: o.signal } : {}) });
          out.push(...r.tools);
          cursor = r.nextCursor;
        } catch (e) {
          throw new Error(`tools/list failed: ${describeError(e, o.timeoutMs)}`, { cause: e });
        }
        if (!cursor) break;
      }
      return out;
    },
    async callTool(name, args, o) {
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: o.timeoutMs, ...(o.signal ? { signal: o.signal } : {}) });
        return { ok: true, result, exchange: recorder.take(name, args) ?? { request: null } };
      } catch (e) {
        const exchange = recorder.take(name, args);
        return { ok: false, message: describeError(e, o.timeoutMs), ...(exchange ? { exchange } : {}) };
      }
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/** An SDK or network error as one sentence a user can act on. */
export function describeError(e: unknown, timeoutMs: number): string {
  const err = e as { code?: unknown; message?: unknown; name?: unknown; cause?: { code?: unknown; message?: unknown } };
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (err?.code === -32001 || /Request timed out/i.test(message)) return `no answer within ${timeoutMs / 1000} s (timed out)`;
  if (err?.name === 'AbortError' || /aborted/i.test(message)) return 'stopped (the run was aborted)';
  const cause = err?.cause && typeof err.cause.code === 'string' ? ` (${err.cause.code})` : '';
  if (/fetch failed|Failed to fetch|ECONNREFUSED|NetworkError/i.test(message + cause)) return `the server could not be reached${cause}: is it running, and is the URL right?`;
  if (typeof err?.code === 'number') return `the server answered with JSON-RPC error ${err.code}: ${message.replace(/^MCP error -?\d+: /, '')}`;
  return message;
}
