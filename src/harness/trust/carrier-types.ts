/**
 * The carriers' shapes (`carriers.ts` reads them from a document) and the two questions asked of
 * them. Apart from the reader, which parses settings and `.mcp.json` (zod), so the trust dialog and
 * the gate's answer load with the first screen without it.
 */
import type { Settings } from '../settings/schema.ts';
import type { McpApprovalSettings } from '../mcp/project-trust.ts';
import { hasActionableContent, type ActionableContent } from './trust.ts';

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
