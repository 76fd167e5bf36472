/**
 * The MCP folder's light entry point: names and approval keys the first screen needs, without the
 * registry, the `.mcp.json` reader or the tool-list checks (zod), which load when a server or a
 * project file is first used.
 */
export { MCP_JSON, type McpServerSpec } from './types.ts';
export { projectApprovalKey, approvalSettingsOf, type McpApprovalSettings } from './project-trust.ts';
