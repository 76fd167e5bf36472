/**
 * Which `.mcp.json` servers may start, as in Claude Code: a project server needs approval —
 * `enableAllProjectMcpServers: true`, or its name in `enabledMcpjsonServers`, or the user's
 * answer to the approval prompt — and `disabledMcpjsonServers` always wins. Deny-first: the
 * approving settings count only from a document the user trusts (an untrusted link could
 * otherwise approve its own servers); the disabling one counts from anywhere.
 *
 * The user's own answer is kept per document and per server *as it is*: `projectApprovalKey` is the
 * document's trust key with the server's name, transport, URL (in-page code, stdio command line) and header (env) names,
 * so approving `docs` for one link does not let another link's `docs` (another URL, other headers)
 * connect.
 */
import { hash53 } from '../context/hash.ts';
import type { McpServerSpec } from './types.ts';

export type McpApprovalSettings = {
  enableAllProjectMcpServers?: boolean;
  enabledMcpjsonServers?: string[];
  disabledMcpjsonServers?: string[];
};

export type McpApproval = { approved: true } | { approved: false; reason: string };

/** What the user's approval of a project server is kept under: this document, this server as it is. */
export function projectApprovalKey(document: string, spec: Pick<McpServerSpec, 'name' | 'transport' | 'url' | 'headers' | 'source' | 'command' | 'args' | 'env'> & { file?: string }): string {
  // A stdio server is approved as the exact command line it runs, with its environment's names.
  const where = spec.command !== undefined ? `command:${JSON.stringify([spec.command, ...(spec.args ?? [])])}` : (spec.url ?? (spec.file ? `file:${spec.file}` : `source:${hash53(spec.source ?? '').toString(36)}`));
  return JSON.stringify([document, spec.name, spec.transport, where, Object.keys(spec.headers ?? spec.env ?? {}).sort()]);
}

/** `approvalKey`: the server's `projectApprovalKey` (what `userApproved` holds); the bare name when absent. */
export function projectServerApproval(
  name: string,
  settings: McpApprovalSettings,
  opts: { trusted: boolean; userApproved?: ReadonlySet<string>; approvalKey?: string },
): McpApproval {
  if (settings.disabledMcpjsonServers?.includes(name)) return { approved: false, reason: `"${name}" is in disabledMcpjsonServers` };
  if (opts.userApproved?.has(opts.approvalKey ?? name)) return { approved: true };
  const enabled = settings.enableAllProjectMcpServers === true || (settings.enabledMcpjsonServers ?? []).includes(name);
  if (enabled && opts.trusted) return { approved: true };
  if (enabled) return { approved: false, reason: `"${name}" is enabled by settings the user has not trusted yet: trust the scenario to start it` };
  return { approved: false, reason: `project server "${name}" (from .mcp.json) is not approved: approve it in the MCP panel, or list it in enabledMcpjsonServers` };
}

/** The approval keys of several settings documents merged: lists concatenate, any `true` enables. */
export function mergeApprovalSettings(docs: readonly McpApprovalSettings[]): McpApprovalSettings {
  const out: McpApprovalSettings = {};
  for (const d of docs) {
    if (d.enableAllProjectMcpServers === true) out.enableAllProjectMcpServers = true;
    if (d.enabledMcpjsonServers) out.enabledMcpjsonServers = [...(out.enabledMcpjsonServers ?? []), ...d.enabledMcpjsonServers];
    if (d.disabledMcpjsonServers) out.disabledMcpjsonServers = [...(out.disabledMcpjsonServers ?? []), ...d.disabledMcpjsonServers];
  }
  return out;
}

/** The approval keys of a loose settings object (Claude Code's settings.json), ignoring wrong types. */
export function approvalSettingsOf(settings: Record<string, unknown>): McpApprovalSettings {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  const enabled = list(settings.enabledMcpjsonServers);
  const disabled = list(settings.disabledMcpjsonServers);
  return {
    ...(settings.enableAllProjectMcpServers === true ? { enableAllProjectMcpServers: true } : {}),
    ...(enabled ? { enabledMcpjsonServers: enabled } : {}),
    ...(disabled ? { disabledMcpjsonServers: disabled } : {}),
  };
}
