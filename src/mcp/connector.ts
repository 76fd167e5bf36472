/**
 * The `McpConnector` (harness port): remote servers through `remote.ts`, in-page servers through
 * `MessageTransport` over whichever channel the host has (the browser's sandbox frame, a Node
 * worker thread), stdio servers through `stdio` where the host can start processes (Node).
 * Without a channel, in-page servers fail with a clear message; without `stdio`, stdio servers.
 */
import type { McpConnection, McpConnector, mcp } from '../harness/index.ts';
import { connectRemote } from './remote.ts';
import { connectSdk } from './sdk-connection.ts';
import type { OpenServerChannel } from './in-page/channel.ts';
import { MessageTransport } from './in-page/message-transport.ts';

type StdioConnect = (spec: mcp.McpServerSpec, o: { timeoutMs: number; signal?: AbortSignal }) => Promise<McpConnection>;

export function createMcpConnector(opts: { inPage?: OpenServerChannel; stdio?: StdioConnect } = {}): McpConnector {
  return {
    startsProcesses: opts.stdio !== undefined,
    async connect(spec, o) {
      if (spec.transport === 'stdio') {
        if (!opts.stdio) throw new Error(`stdio server "${spec.name}" runs a local command; a browser cannot start processes (run it headless, or use an http or in-page server)`);
        return opts.stdio(spec, o);
      }
      if (spec.transport !== 'in-page') return connectRemote(spec, o);
      if (!opts.inPage) throw new Error('in-page servers cannot run here (no user-code runtime)');
      if (!spec.source?.trim()) throw new Error(`in-page server "${spec.name}" has no source`);
      const transport = new MessageTransport(opts.inPage, spec.source);
      try {
        return await connectSdk(transport, 'in-page', { ...o, server: spec.name });
      } catch (e) {
        // The worker's own failure (a syntax error, a throw at top level) says more than "connection closed".
        if (transport.failure) throw new Error(`the server's code failed: ${transport.failure}`, { cause: e });
        throw e;
      }
    },
  };
}
