/**
 * `.mcp.json`, Claude Code's project server file: `{ "mcpServers": { "<name>": { … } } }` with
 * `type: "http" | "sse"` + `url` (+ `headers`), or `command` + `args` + `env` (stdio). Stdio servers
 * are read like the others; only a host that can start processes (the headless runner) connects
 * them, and the browser's connector refuses them with a clear message. This
 * playground adds `type: "in-page"` with the server's JavaScript inline (`source`) or in a file of
 * the project (`file`, relative to the project), run in the isolated user-code runtime.
 *
 * Reading never throws: each entry that cannot be used is a problem naming it, and the rest load.
 */
import { z } from 'zod';
import type { McpServerSpec } from './types.ts';

const remote = z.object({
  type: z.enum(['http', 'sse', 'streamable-http']).optional(),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});
const inPage = z.object({
  type: z.literal('in-page'),
  source: z.string().max(200_000).optional(),
  file: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});
const stdio = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});

/** A server read from the file; `file` still to be read from the sandbox for in-page servers. */
export type McpJsonServer = { spec: McpServerSpec; file?: string };
export type McpJsonProblem = { server?: string; message: string };
export type McpJsonReading = { servers: McpJsonServer[]; problems: McpJsonProblem[] };

export function readMcpJson(text: string, path = '.mcp.json'): McpJsonReading {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { servers: [], problems: [{ message: `${path} is not valid JSON: ${e instanceof Error ? e.message : String(e)}` }] };
  }
  const root = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).safeParse(doc);
  if (!root.success) return { servers: [], problems: [{ message: `${path} needs an "mcpServers" object` }] };
  const servers: McpJsonServer[] = [];
  const problems: McpJsonProblem[] = [];
  for (const [name, entry] of Object.entries(root.data.mcpServers)) {
    if (!/^[A-Za-z0-9_.-]{1,40}$/.test(name)) {
      problems.push({ server: name, message: `${path}: server name "${name}" must be 1–40 letters, digits, "_", "-" or "."` });
      continue;
    }
    const type = (entry as { type?: unknown } | null)?.type;
    if (type === 'in-page') {
      const r = inPage.safeParse(entry);
      if (!r.success || (!r.data.source && !r.data.file)) {
        problems.push({ server: name, message: `${path}: in-page server "${name}" needs "source" (its JavaScript) or "file" (a path in the project)` });
        continue;
      }
      const spec: McpServerSpec = { name, transport: 'in-page', scope: 'project', ...(r.data.source ? { source: r.data.source } : {}), ...(r.data.timeoutMs ? { timeoutMs: r.data.timeoutMs } : {}) };
      servers.push(r.data.file && !r.data.source ? { spec, file: r.data.file } : { spec });
      continue;
    }
    if ((type === undefined || type === 'stdio') && (entry as { command?: unknown } | null)?.command !== undefined) {
      const r = stdio.safeParse(entry);
      if (!r.success) {
        const issue = r.error.issues[0];
        problems.push({ server: name, message: `${path}: stdio server "${name}": ${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}` });
        continue;
      }
      const { command, args, env, timeoutMs } = r.data;
      servers.push({ spec: { name, transport: 'stdio', scope: 'project', command, ...(args ? { args } : {}), ...(env ? { env } : {}), ...(timeoutMs ? { timeoutMs } : {}) } });
      continue;
    }
    const r = remote.safeParse(entry);
    if (!r.success) {
      const issue = r.error.issues[0];
      problems.push({ server: name, message: `${path}: server "${name}": ${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}` });
      continue;
    }
    servers.push({
      spec: {
        name,
        transport: r.data.type === 'sse' ? 'sse' : 'http',
        url: r.data.url,
        scope: 'project',
        ...(r.data.headers ? { headers: r.data.headers } : {}),
        ...(r.data.timeoutMs ? { timeoutMs: r.data.timeoutMs } : {}),
      },
    });
  }
  return { servers, problems };
}
