/**
 * Everything trusting a document would turn on, wherever in the document it sits — the
 * "carriers". The trust key is the whole document (`document-key.ts`), and a run reads settings
 * from the sandbox files too (`.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json`),
 * so the question must show those as well as the scenario's own settings, or trusting "one allow
 * rule" would also start hooks and servers nobody saw. One pure function, so the trust dialog,
 * the headless runner and the tests enumerate the same list.
 *
 * What acts (and so makes a question necessary): hooks, allow rules, permissive modes, extra
 * readable directories (per settings source), custom tools, and `.mcp.json` servers that an
 * `enable*` setting would start. What is shown with it, because trusting also sends or loads it
 * (CLAUDE.md into a live request, agent / skill / command definitions, hook scripts): the files.
 */
import { parseSettings } from '../settings/index.ts';
import { approvalSettingsOf, mergeApprovalSettings, projectServerApproval, type McpApprovalSettings } from '../mcp/project-trust.ts';
import { readMcpJson } from '../mcp/mcp-json.ts';
import { actionableContent } from './trust.ts';
import type { DocumentCarriers, FileCarrierKind, TrustDocument } from './carrier-types.ts';

export { carriersAct, hookBody } from './carrier-types.ts';
export type * from './carrier-types.ts';

/** `.claude/settings.json`, `.claude/settings.local.json` and any other `.claude/settings*.json`, at any depth. */
const SETTINGS_FILE = /(^|\/)\.claude\/settings[^/]*\.json$/;
const MCP_FILE = /(^|\/)\.mcp\.json$/;

/** What a path of the document is, for the files the question lists (null: a plain project file). */
function fileKind(path: string): FileCarrierKind | null {
  if (/(^|\/)CLAUDE(\.local)?\.md$/.test(path)) return 'memory';
  if (/(^|\/)\.claude\/agents\/.+\.md$/.test(path)) return 'agent';
  if (/(^|\/)\.claude\/skills\/.+/.test(path)) return 'skill';
  if (/(^|\/)\.claude\/commands\/.+/.test(path)) return 'command';
  if (/(^|\/)\.claude\/hooks\/.+/.test(path)) return 'hook-script';
  if (/(^|\/)\.claude\/output-styles\/.+/.test(path)) return 'output-style';
  return null;
}

/** A settings file's MCP approval keys, read from its raw JSON (the settings schema does not keep them). */
function rawApproval(text: string): McpApprovalSettings {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? approvalSettingsOf(value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function documentCarriers(doc: TrustDocument): DocumentCarriers {
  const out: DocumentCarriers = { settings: [], broken: [], mcpServers: [], tools: [], files: [] };
  if (doc.settings) out.settings.push({ file: null, content: actionableContent(doc.settings) });
  const approvals: McpApprovalSettings[] = doc.mcpApproval ? [doc.mcpApproval] : [];
  const paths = Object.keys(doc.files).sort();
  for (const path of paths) {
    const text = doc.files[path]!;
    if (SETTINGS_FILE.test(path)) {
      const parsed = parseSettings(text, 'json');
      if (parsed.ok) out.settings.push({ file: path, content: actionableContent(parsed.settings) });
      else out.broken.push({ file: path, problem: parsed.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ') });
      approvals.push(rawApproval(text));
      continue;
    }
    const kind = fileKind(path);
    if (kind) out.files.push({ kind, path });
  }
  const approval = mergeApprovalSettings(approvals);
  for (const path of paths.filter((p) => MCP_FILE.test(p))) {
    for (const { spec, file } of readMcpJson(doc.files[path]!, path).servers) {
      const startsOnTrust = projectServerApproval(spec.name, approval, { trusted: true }).approved;
      out.mcpServers.push({
        name: spec.name,
        transport: spec.transport,
        ...(spec.url ? { url: spec.url } : {}),
        headerNames: Object.keys(spec.headers ?? {}).sort(),
        ...(spec.transport === 'in-page' ? { inPage: { ...(file ? { file } : {}), ...(spec.source ? { source: spec.source } : {}) } } : {}),
        startsOnTrust,
      });
    }
  }
  for (const t of doc.customTools ?? []) {
    out.tools.push({ name: t.name, kind: t.implementation.kind, body: t.implementation.kind === 'js' ? t.implementation.source : t.implementation.command });
  }
  return out;
}
