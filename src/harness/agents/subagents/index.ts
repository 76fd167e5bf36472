export { agentTool, childTools, findDefinition, AGENT_TOOL_NAME, agentInputSchema, type AgentInput } from './agent-tool.ts';
export { loadDefinitions, parseDefinition, GENERAL_PURPOSE, AGENTS_DIR, DEFAULT_SUBAGENT_MAX_TURNS, toolNameOf } from './definitions.ts';
export type { SubagentDefinition, DefinitionProblem, LoadedDefinitions } from './definitions.ts';
export { childMode, MAX_AGENT_DEPTH, type SubagentRuntime, type ChildModelRequest } from './runtime.ts';
export { finalText, usageTrailer } from './run-child.ts';
