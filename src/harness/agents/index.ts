/**
 * The agents layer's public face: todos, subagents, skills, the task graph, background jobs and steering.
 * Reached from the UI and CLI as `agents` in `src/harness/index.ts`.
 */
export { BackgroundJobs, JOB_OUTPUT_CAP, type BackgroundJob, type JobStatus } from './background/jobs.ts';
export { notificationText, jobSummary } from './background/notification.ts';
export { bashOutputTool, killShellTool } from './background/tools.ts';
export { SteeringQueue, scriptedSteering, combinedInbox, parseSteerFile, steeringText, type SteeringInbox, type SteeringMessage, type ScriptedSteer } from './steering/inbox.ts';
export { boardOf, checkClaim, claimOrder, cycleVia, priorityOf, unknownDependencies, TASK_PRIORITIES, DEFAULT_PRIORITY, type Task, type TaskStatus, type TaskPriority, type Board, type BoardTask } from './tasks/graph.ts';
export { readTasks, TASKS_DIR } from './tasks/store.ts';
export { taskTools, taskCreateTool, taskListTool, taskGetTool, taskUpdateTool, boardText } from './tasks/tools.ts';
export { parseSkillFile, type Skill, type SkillOrigin, type SkillProblem } from './skills/skill-file.ts';
export { builtinSkills, sandboxSkills, mergeCatalogs, emptyCatalog, PROJECT_SKILLS_DIR, type SkillCatalog, type SkillFile, type SkillFilesLoader } from './skills/catalog.ts';
export { skillTool, skillBodyText, skillListing, BUILTIN_SKILL_FILES_DIR } from './skills/skill-tool.ts';
export { loadedSkillNames } from './site.ts';
export type { AgentEventBody, SkillListing } from './events.ts';
export { agentTools, type AgentFeature } from './tools.ts';
// Agents that plan and delegate: the todo list and subagents.
export * from './todos/index.ts';
export * from './subagents/index.ts';
export { agentToolPool, type AgentPoolOptions } from './pool.ts';
// Teams: long-lived teammates with mailboxes, the s10 protocol and autonomous claiming.
export * as teams from './teams/index.ts';
// What code outside the harness imports from this folder (its sub-entry point).
export { type ModelAliasOverrides, modelAliasesFromEnv } from './subagents/model-alias.ts';
export { withTeamEnd } from './teams/end.ts';
export { type TeamEventBody } from './teams/events.ts';
export { DEFAULT_HEARTBEAT_MS } from './teams/presence.ts';
export { teammateTabRun } from './teams/tab-run.ts';
export { Team } from './teams/team.ts';
export { type TeamTransport, type TeamWire, WIRE_KINDS } from './teams/transport.ts';
export { isolatedTeammateWorkspace } from './teams/workspace.ts';
