/**
 * Stdio MCP servers (`.mcp.json` `command` + `args` + `env`), for a host that can start processes:
 * the headless runner. The server starts in the project's folder with the SDK's safe default
 * environment (PATH, HOME, … — not the runner's whole environment, so not `ANTHROPIC_API_KEY`)
 * plus the entry's own `env`. Closing the connection (the registry's dispose at the run's end, a
 * stop during the handshake) ends the process: stdin closed, then SIGTERM, then SIGKILL.
 * A server that cannot start or dies during the handshake is one line naming it, with the last
 * line it wrote to stderr.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpConnection, mcp } from '../harness/index.ts';
import { connectSdk } from './sdk-connection.ts';

type Opts = { timeoutMs: number; signal?: AbortSignal };

/** The most of a server's stderr kept for a failure message. */
const STDERR_TAIL = 2_000;

export async function connectStdio(spec: mcp.McpServerSpec, opts: Opts, cwd: string): Promise<McpConnection> {
  if (!spec.command) throw new Error(`stdio server "${spec.name}" has no command`);
  const transport = new StdioClientTransport({ command: spec.command, args: spec.args ?? [], cwd, stderr: 'pipe', ...(spec.env ? { env: spec.env } : {}) });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-STDERR_TAIL);
  });
  try {
    return await connectSdk(transport, 'stdio', { ...opts, server: spec.name });
  } catch (e) {
    const started = `"${[spec.command, ...(spec.args ?? [])].join(' ')}"`;
    const said = lastLine(stderr);
    throw new Error(`${started} did not start as an MCP server: ${spawnProblem(e)}${said ? ` (its stderr: ${said})` : ''}`, { cause: e });
  }
}

/** The spawn error itself (ENOENT: no such command) rather than the handshake's "connection closed" it leads to. */
function spawnProblem(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause?.code === 'ENOENT' || /ENOENT/.test(message)) return 'no such command';
  if (cause?.code === 'EACCES' || /EACCES/.test(message)) return 'the command is not executable';
  return message;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.at(-1) ?? '';
  return last.length > 200 ? `${last.slice(0, 200)}…` : last;
}
