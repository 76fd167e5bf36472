/** MCP in the harness: naming, the registry of servers, `.mcp.json` and project approval. See README.md. */
export { sanitizeMcpName, mcpToolName, mcpToolNameProblem, isMcpToolName, MCP_TOOL_NAME_MAX } from './names.ts';
export { McpRegistry, type McpServerState, type McpServerStatus } from './registry.ts';
export { readMcpJson, type McpJsonReading, type McpJsonServer, type McpJsonProblem } from './mcp-json.ts';
export { projectServerApproval, projectApprovalKey, mergeApprovalSettings, approvalSettingsOf, type McpApprovalSettings } from './project-trust.ts';
export { syncProjectServers, MCP_JSON } from './project.ts';
export { mcpResultToOutcome, mcpFailureOutcome, clipLine } from './result.ts';
export { readToolList, type NamedMcpTool } from './tool-list.ts';
export { mcpTool, MCP_DESCRIPTION_MAX } from './mcp-tool.ts';
export type { McpEventBody } from './events.ts';
export * from './types.ts';
