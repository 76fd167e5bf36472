/**
 * The MCP connector for Node (headless runner, tests): in-page servers run in worker threads,
 * stdio servers as child processes started in `cwd` (the project's folder; this process's
 * working directory by default).
 */
import { createMcpConnector } from './connector.ts';
import { openNodeServerChannel } from './in-page/node-channel.ts';
import { connectStdio } from './stdio.ts';

export const createNodeMcpConnector = (opts: { cwd?: string } = {}) =>
  createMcpConnector({ inPage: openNodeServerChannel, stdio: (spec, o) => connectStdio(spec, o, opts.cwd ?? process.cwd()) });
