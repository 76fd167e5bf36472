/**
 * The built-in tools, and lookup by name. See README.md in this folder for the contract.
 */
import type { AnyTool } from './tool.ts';
import { bashTool } from './bash.ts';
import { readTool } from './read.ts';
import { writeTool } from './write.ts';
import { editTool } from './edit.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { revertTool } from './revert.ts';

export { bashTool, looksDestructive } from './bash.ts';
export { readTool } from './read.ts';
export { writeTool } from './write.ts';
export { editTool } from './edit.ts';
export { globTool } from './glob.ts';
export { grepTool } from './grep.ts';
export { revertTool } from './revert.ts';
export {
  runToolCall,
  validateToolCall,
  executeToolCall,
  formatZodIssues,
  type ToolCallRun,
  type ToolUseRequest,
  type ValidatedCall,
  type RejectedCall,
} from './run-tool.ts';
export { buildTool, toolSchemaOf, type AnyTool, type Tool, type ToolContext, type ToolOutcome } from './tool.ts';
export { FileState, type Snapshot } from './file-state.ts';
export { applyEdit } from './edit-match.ts';

/** Fresh instances of every built-in tool, in a stable order (the order the model sees them). */
export function builtinTools(): AnyTool[] {
  return [bashTool(), readTool(), writeTool(), editTool(), globTool(), grepTool(), revertTool()];
}

/** The tool called `name` (exact, case-sensitive, as the API sends it), if any. */
export function findTool(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name);
}
// What code outside the harness imports from this folder (its sub-entry point).
export { type CustomToolDefinition, DEFAULT_CUSTOM_TOOL_TIMEOUT_MS, customTool, parseCustomTool } from './custom/index.ts';
export { customToolsSchema } from './custom/definition.ts';
export { withExtraTools } from './custom/extra-tools.ts';
