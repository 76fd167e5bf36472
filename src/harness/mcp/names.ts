/**
 * MCP tool names as Claude Code builds them: `mcp__<server>__<tool>`, each part with every
 * character outside `[A-Za-z0-9_-]` replaced by `_` (so `my.server` → `my_server`). The Messages
 * API accepts tool names of at most 64 characters from that same alphabet, so a longer name is
 * refused with a clear error rather than cut (a cut name could collide with another tool).
 */

export const MCP_TOOL_NAME_MAX = 64;

/** `name` with every character the API does not allow in a tool name replaced by `_`. */
export function sanitizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The name the model sees for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitizeMcpName(server)}__${sanitizeMcpName(tool)}`;
}

/** Why `name` cannot be sent as a tool name, or null when it can. */
export function mcpToolNameProblem(name: string): string | null {
  if (name.length > MCP_TOOL_NAME_MAX) return `the tool name ${name} is ${name.length} characters long; the API allows at most ${MCP_TOOL_NAME_MAX}. Shorten the server or tool name.`;
  return null;
}

/** Whether a tool name is an MCP tool's (the prefix is the only difference from a built-in). */
export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp__');
}
