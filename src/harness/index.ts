/**
 * The public API of the harness. Code outside `src/harness/` imports from here, from the
 * contracts beside it (`ports.ts`, `messages.ts`, `trace.ts`, `clock.ts`, `leaf-types.ts`) or from
 * a folder's sub-entry point (`<folder>/index.ts`) — never from a folder's internals (ESLint's
 * no-restricted-imports enforces it; unit tests are exempt, they test the internals).
 */
export { agentLoop } from './loop/agent-loop.ts';
export type { LoopInput, LoopDeps, LoopBudgets, RunResult } from './loop/types.ts';
export { DEFAULT_BUDGETS } from './loop/types.ts';
export { deferredToolNames, DEFAULT_DEFERRED_TOOLS } from './loop/deferred-tools.ts';
export * from './messages.ts';
export * from './ports.ts';
export * from './trace.ts';
export { realClock, FakeClock, SequentialIds, randomIds } from './clock.ts';
export { buildTool, toolSchemaOf } from './tools/tool.ts';
export type { Tool, AnyTool, ToolContext, ToolOutcome } from './tools/tool.ts';
export { FileState } from './tools/file-state.ts';
export { applyEdit } from './tools/edit-match.ts';
export { builtinTools } from './tools/index.ts';
export { checkTranscript } from './loop/check-transcript.ts';
export type { Prompter } from './loop/run-tools.ts';
export type { LoopHooks } from './loop/hook-site.ts';
export * as permissions from './permissions/index.ts';
export * as hooks from './hooks/index.ts';
export * as settings from './settings/index.ts';
export * as trust from './trust/index.ts';
export * as context from './context/index.ts';
export * as session from './session/index.ts';
export * as memory from './memory/index.ts';
export * as agents from './agents/index.ts';
export * as workspace from './workspace/index.ts';
export * as mcp from './mcp/index.ts';
export { withUserContent } from './loop/history.ts';
export { serverWaitNote } from './loop/retry-policy.ts';
export * as cost from './cost/index.ts';
