/** The MCP connector for Node (headless runner, tests): in-page servers run in worker threads. */
import { createMcpConnector } from './connector.ts';
import { openNodeServerChannel } from './in-page/node-channel.ts';

export const createNodeMcpConnector = () => createMcpConnector({ inPage: openNodeServerChannel });
