/**
 * Which tools a run keeps deferred: listed by name only (in `tool_search`'s description) until
 * the model loads them, as Claude Code does with its `ToolSearch`. Most sessions never call the
 * agent, task and team tools, yet their schemas (≈ 9 KB) would sit in every request's prefix.
 */
import type { AnyTool } from '../tools/tool.ts';

/** Rarely used built-in tools: deferred whenever deferral is on. */
export const DEFAULT_DEFERRED_TOOLS: readonly string[] = [
  'agent', 'todo_write', 'task_create', 'task_list', 'task_get', 'task_update',
  'bash_output', 'kill_shell', 'send_message', 'spawn_teammate', 'read_inbox', 'webfetch',
];

/** MCP tools are deferred only when their schemas together exceed this share of the context window. */
export const MCP_DEFER_SHARE = 0.1;

/** Rough bytes per token of a JSON schema (the same 4-characters rule as `context/tokens.ts`). */
const BYTES_PER_TOKEN = 4;

const isMcp = (t: AnyTool) => t.name.startsWith('mcp__');

const schemaBytes = (t: AnyTool) => t.name.length + t.description.length + JSON.stringify(t.inputJsonSchema).length;

/**
 * The names to defer in `tools`: the default list, plus every MCP tool when the MCP schemas
 * together would take more than {@link MCP_DEFER_SHARE} of `contextWindow` tokens.
 */
export function deferredToolNames(tools: readonly AnyTool[], contextWindow: number): string[] {
  const mcp = tools.filter(isMcp);
  const mcpTokens = mcp.reduce((n, t) => n + schemaBytes(t), 0) / BYTES_PER_TOKEN;
  const deferMcp = mcpTokens > MCP_DEFER_SHARE * contextWindow;
  return tools.filter((t) => DEFAULT_DEFERRED_TOOLS.includes(t.name) || (deferMcp && isMcp(t))).map((t) => t.name);
}
