/**
 * The Node MCP connector, loaded on its first connection: the MCP SDK client, the stdio and
 * worker-thread transports (≈ 330 KB in the runner's bundle) are read only by a run that has a
 * `.mcp.json` or `--mcp-config` server to connect to. Every run of the headless runner gets this
 * connector; one without MCP servers never calls `connect`, so never imports `node.ts`.
 */
import type { McpConnector } from '../harness/ports.ts';

export function createNodeMcpConnectorOnDemand(opts: { cwd?: string } = {}): McpConnector {
  let real: Promise<McpConnector> | null = null;
  return {
    // What node.ts's connector says: Node can start stdio servers.
    startsProcesses: true,
    connect(spec, o) {
      real ??= import('./node.ts').then((m) => m.createNodeMcpConnector(opts));
      return real.then((c) => c.connect(spec, o));
    },
  };
}
