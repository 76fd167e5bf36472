/**
 * The project's servers: `.mcp.json` at the top of the working directory, read at each run start
 * (as Claude Code reads it at start-up), approved or blocked (`project-trust.ts`), and synced into
 * the registry. In-page servers named by `file` get that file's text as their source. Problems
 * (bad JSON, an unreadable file, a stdio server where no process can start) become `mcp.error` events with `phase: "config"`;
 * the other servers still load.
 */
import type { SandboxFs } from '../ports.ts';
import { readMcpJson } from './mcp-json.ts';
import { projectApprovalKey, projectServerApproval, type McpApprovalSettings } from './project-trust.ts';
import type { McpRegistry } from './registry.ts';
import type { TraceEventBody } from '../trace.ts';

import { MCP_JSON } from './types.ts';

export { MCP_JSON };

export type ProjectServersInput = {
  fs: SandboxFs;
  workdir: string;
  registry: McpRegistry;
  settings: McpApprovalSettings;
  /** Whether the document the project came from is trusted (see `project-trust.ts`). */
  trusted: boolean;
  /** Servers the user approved at the prompt in this session, as `projectApprovalKey`s. */
  userApproved?: ReadonlySet<string>;
  /** The trust key of the document the project came from: an approval counts only for it. */
  document?: string;
};

/** Syncs the registry's project servers with `.mcp.json`; returns the config problems as events. */
export async function syncProjectServers(input: ProjectServersInput): Promise<TraceEventBody[]> {
  const { fs, workdir, registry } = input;
  const path = `${workdir}/${MCP_JSON}`;
  if (!(await fs.stat(path))) {
    await registry.prune('project', new Set());
    return [];
  }
  const events: TraceEventBody[] = [];
  let text: string;
  try {
    text = await fs.readFile(path);
  } catch (e) {
    return [{ type: 'mcp.error', server: MCP_JSON, phase: 'config', message: `${MCP_JSON} could not be read: ${e instanceof Error ? e.message : String(e)}` }];
  }
  const reading = readMcpJson(text);
  for (const p of reading.problems) events.push({ type: 'mcp.error', server: p.server ?? MCP_JSON, phase: 'config', message: p.message });
  const keep = new Set<string>();
  for (const { spec, file } of reading.servers) {
    if (spec.transport === 'stdio' && !registry.startsProcesses()) {
      events.push({ type: 'mcp.error', server: spec.name, phase: 'config', message: `${MCP_JSON}: "${spec.name}" is a stdio server (a local command); a browser cannot start processes. Use an http or in-page server, or run the folder headless.` });
      continue;
    }
    keep.add(spec.name);
    const approvalKey = projectApprovalKey(input.document ?? '', { ...spec, ...(file ? { file } : {}) });
    const approval = projectServerApproval(spec.name, input.settings, { trusted: input.trusted, approvalKey, ...(input.userApproved ? { userApproved: input.userApproved } : {}) });
    if (!approval.approved) {
      registry.block(spec, approval.reason, 'trust');
      continue;
    }
    let full = spec;
    if (file) {
      const abs = file.startsWith('/') ? file : `${workdir}/${file}`;
      try {
        full = { ...spec, source: await fs.readFile(abs) };
      } catch (e) {
        registry.block(spec, `its source file ${file} could not be read: ${e instanceof Error ? e.message : String(e)}`, 'config');
        continue;
      }
    }
    const clash = registry.set(full);
    if (clash) events.push({ type: 'mcp.error', server: spec.name, phase: 'config', message: clash });
  }
  await registry.prune('project', keep);
  return events;
}
