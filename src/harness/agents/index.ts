/** Agents that plan and delegate: the todo list and subagents. See README.md. */
export * from './todos/index.ts';
export * from './subagents/index.ts';
export { agentToolPool, type AgentPoolOptions } from './pool.ts';
