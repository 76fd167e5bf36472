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
import { parseSettings, type Settings } from '../settings/index.ts';
import { approvalSettingsOf, mergeApprovalSettings, projectServerApproval, type McpApprovalSettings } from '../mcp/project-trust.ts';
import { readMcpJson } from '../mcp/mcp-json.ts';
import { actionableContent, hasActionableContent, type ActionableContent } from './trust.ts';

/** A custom tool as a document carries it (the scenario's `customTools` entries). */
export type CarriedTool = { name: string; implementation: { kind: 'js'; source: string } | { kind: 'shell'; command: string } };

/** A document as the trust question sees it. `files` are project-relative paths → content. */
export type TrustDocument = {
  /** The document's own settings (a scenario's `settings`), if any. */
  settings?: Settings;
  /** The document's own MCP approval keys (`enableAllProjectMcpServers`, `enabledMcpjsonServers`, …). */
  mcpApproval?: McpApprovalSettings;
  customTools?: readonly CarriedTool[];
  files: Readonly<Record<string, string>>;
};

/** One settings document and what in it acts: the scenario's own (`file: null`) or a file of the document. */
export type SettingsCarrier = { file: string | null; content: ActionableContent };

/** A `.claude/settings*.json` in the files that does not parse: a run leaves it out too, but the person sees it. */
export type BrokenCarrier = { file: string; problem: string };

/** A `.mcp.json` server: name, where it connects, the names (never values) of the headers it sends, and whether trust would start it. */
export type McpCarrier = { name: string; transport: string; url?: string; headerNames: string[]; inPage?: { file?: string; source?: string }; startsOnTrust: boolean };

/** A custom tool and its body, verbatim. */
export type ToolCarrier = { name: string; kind: 'js' | 'shell'; body: string };

export type FileCarrierKind = 'memory' | 'agent' | 'skill' | 'command' | 'hook-script' | 'output-style';
export type FileCarrier = { kind: FileCarrierKind; path: string };

export type DocumentCarriers = {
  settings: SettingsCarrier[];
  broken: BrokenCarrier[];
  mcpServers: McpCarrier[];
  tools: ToolCarrier[];
  files: FileCarrier[];
};

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

/** Whether anything in the document acts once trusted (a question is needed); files alone only inform. */
export function carriersAct(c: DocumentCarriers): boolean {
  return c.settings.some((s) => hasActionableContent(s.content)) || c.tools.length > 0 || c.mcpServers.some((m) => m.startsOnTrust);
}

/** The verbatim text of a hook handler, whatever its type (a command, a JS body, or any other field it runs with). */
export function hookBody(hook: Record<string, unknown>): string {
  if (typeof hook.command === 'string') return hook.command;
  if (typeof hook.code === 'string') return hook.code;
  if (typeof hook.prompt === 'string') return hook.prompt;
  const { type: _type, if: _if, name: _name, timeout: _timeout, ...rest } = hook;
  return JSON.stringify(rest, null, 2);
}
