/**
 * The `McpConnector` (harness port): remote servers through `remote.ts`, in-page servers through
 * `MessageTransport` over whichever channel the host has (the browser's sandbox frame, a Node
 * worker thread). Without a channel, in-page servers fail with a clear message.
 */
import type { McpConnector } from '../harness/index.ts';
import { connectRemote } from './remote.ts';
import { connectSdk } from './sdk-connection.ts';
import type { OpenServerChannel } from './in-page/channel.ts';
import { MessageTransport } from './in-page/message-transport.ts';

export function createMcpConnector(opts: { inPage?: OpenServerChannel } = {}): McpConnector {
  return {
    async connect(spec, o) {
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
