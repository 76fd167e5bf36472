/**
 * The MCP connector for the page: remote servers over the page's fetch (Streamable HTTP / SSE),
 * in-page servers as jobs of their own user-code sandbox frame (opaque origin, no network).
 * Loaded on demand, so the SDK is not part of the first load.
 */
import { createMcpConnector } from './connector.ts';
import { frameServerChannel } from './in-page/frame-channel.ts';
import { createFrameRuntime } from '../user-code/frame-host.ts';

export function createBrowserMcpConnector() {
  return createMcpConnector({ inPage: frameServerChannel(createFrameRuntime()) });
}
