/**
 * MCP for one run: the project's `.mcp.json` (from the sandbox, so a scenario's file and a file
 * the user or agent wrote count alike) is synced into the registry with Claude Code's approval
 * rules, every server that is not connected is connected, and the run gets the servers' tools and
 * what happened (`mcp.connect`, `mcp.tools`, `mcp.error`) as its prelude events.
 *
 * The UI passes its page-wide registry (the MCP panel's servers, connected already); the headless
 * runner passes a connector and gets a registry for the run, closed by `dispose`. Neither and no
 * `.mcp.json`: nothing happens (no cost for the runs that use no MCP).
 */
import type { AnyTool, McpConnector, Sandbox, TraceEventBody } from '../harness/index.ts';
import { mcp } from '../harness/index.ts';
import type { Scenario } from '../scenarios/schema.ts';
import type { ScopedSettings } from '../harness/settings/index.ts';

export type PrepareMcpOptions = {
  /** The session's servers (the UI's); a run-local one is made from `connector` otherwise. */
  registry?: mcp.McpRegistry;
  /**
   * The session's registry made on demand, when there is no `registry` yet: opened only for a project
   * with a `.mcp.json` (the page's: its MCP SDK stays unloaded for every other run).
   */
  openRegistry?: () => Promise<mcp.McpRegistry>;
  connector?: McpConnector;
  /** Project servers the user approved at the prompt (`mcp.projectApprovalKey`s). */
  userApproved?: ReadonlySet<string>;
  /** The document's trust key: approvals count only for the document they were given in. */
  document?: string;
  /**
   * Configs the user gave on the command line (`--mcp-config`, `.mcp.json`'s shape): the user's
   * own, so their servers need no approval (user scope), beside the project's.
   */
  cliConfigs?: readonly { text: string; origin: string }[];
};

export type PreparedMcp = { tools: AnyTool[]; events: TraceEventBody[]; dispose: () => Promise<void> };

const NOTHING: PreparedMcp = { tools: [], events: [], dispose: async () => {} };

export async function prepareMcp(
  opts: PrepareMcpOptions | undefined,
  ctx: { scenario: Scenario; sandbox: Sandbox; trusted: boolean; settingsScopes: readonly ScopedSettings[]; now: () => number; signal?: AbortSignal; hasProjectFile?: boolean },
): Promise<PreparedMcp> {
  const hasProjectFile = ctx.hasProjectFile ?? (await hasMcpJson(ctx.sandbox));
  if (!opts?.registry && !hasProjectFile && !opts?.cliConfigs?.length) return NOTHING;
  const session = opts?.registry ?? (opts?.openRegistry ? await opts.openRegistry() : undefined);
  const own = !session;
  const registry = session ?? new mcp.McpRegistry(opts?.connector ?? null, ctx.now);
  const settings = mcp.mergeApprovalSettings([
    mcp.approvalSettingsOf(ctx.scenario.settings as Record<string, unknown>),
    ...ctx.settingsScopes.map((s) => mcp.approvalSettingsOf(s.settings as Record<string, unknown>)),
  ]);
  const configEvents = await mcp.syncProjectServers({
    fs: ctx.sandbox.fs,
    workdir: ctx.sandbox.workdir,
    registry,
    settings,
    trusted: ctx.trusted,
    ...(opts?.userApproved ? { userApproved: opts.userApproved } : {}),
    ...(opts?.document !== undefined ? { document: opts.document } : {}),
  });
  for (const c of opts?.cliConfigs ?? []) configEvents.push(...cliServers(registry, c));
  await registry.connectAll(ctx.signal);
  return {
    tools: registry.tools(),
    events: [...configEvents, ...registry.drainEvents()],
    dispose: own ? () => registry.closeAll() : async () => {},
  };
}

/** Whether the project has a `.mcp.json` (`prepareRun` asks with its other reads and passes the answer in). */
export async function hasMcpJson(sandbox: Sandbox): Promise<boolean> {
  return (await sandbox.fs.stat(`${sandbox.workdir}/${mcp.MCP_JSON}`).catch(() => null)) !== null;
}

/** `--mcp-config` servers into the registry (user scope); what cannot be used becomes an `mcp.error`. */
function cliServers(registry: mcp.McpRegistry, config: { text: string; origin: string }): TraceEventBody[] {
  const reading = mcp.readMcpJson(config.text, config.origin);
  const events: TraceEventBody[] = reading.problems.map((p) => ({ type: 'mcp.error', server: p.server ?? config.origin, phase: 'config', message: p.message }));
  for (const { spec, file } of reading.servers) {
    if (file) {
      events.push({ type: 'mcp.error', server: spec.name, phase: 'config', message: `${config.origin}: give "${spec.name}"'s JavaScript inline ("source"); "file" names a path in the project, not on the command line` });
      continue;
    }
    const clash = registry.set({ ...spec, scope: 'user' });
    if (clash) events.push({ type: 'mcp.error', server: spec.name, phase: 'config', message: clash });
  }
  return events;
}
