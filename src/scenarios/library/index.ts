/**
 * The built-in scenarios. Each JSON is a v0 or v1 document, migrated to v1 and validated at load,
 * so a broken one fails loudly in tests. `builtinDocs` are the whole documents (every prompt, the
 * lesson); `builtinScenarios` are what runs, at each document's first prompt.
 */
import { toRunnableScenario } from '../migrate.ts';
import { firstBuiltinDoc, migrateBuiltin } from './first.ts';
import type { Scenario } from '../schema.ts';
import type { ScenarioV1 } from '../schema-v1.ts';
import fixABug from './fix-a-bug.json';
import maxTokensRecovery from './max-tokens-recovery.json';
import flakyModel from './flaky-model.json';
import denyBeatsAllow from './deny-beats-allow.json';
import askPermission from './ask-permission.json';
import hookRewritesCommand from './hook-rewrites-command.json';
import stopHookKeepsWorking from './stop-hook-keeps-working.json';
import planMode from './plan-mode.json';
import compoundCommand from './compound-command.json';
import pretoolUseHookBlocks from './pretooluse-hook-blocks.json';
import budgetReduction from './budget-reduction.json';
import snipWindow from './snip-window.json';
import microcompactCacheAware from './microcompact-cache-aware.json';
import cacheBreakage from './cache-breakage.json';
import contextCollapse from './context-collapse.json';
import autoCompact from './auto-compact.json';
import memoryClaudeMd from './memory-claude-md.json';
import summaryToMemory from './summary-to-memory.json';
import lessonFollowUps from './lesson-follow-ups.json';
import skillOnDemand from './skill-on-demand.json';
import taskGraph from './task-graph.json';
import backgroundTests from './background-tests.json';
import steeringMidRun from './steering-mid-run.json';
import nodeProjectBug from './node-project-bug.json';
import replayDiverges from './replay-diverges.json';
import planWithTodos from './plan-with-todos.json';
import delegateParallelSubagents from './delegate-parallel-subagents.json';
import customSubagent from './custom-subagent.json';
import isolatedWorkspacesOverlap from './isolated-workspaces-overlap.json';
import isolatedWorkspacesGit from './isolated-workspaces-git.json';
// course lessons for the continue sites and exits the scenarios above do not show
import emptyReply from './empty-reply.json';
import maxTurns from './max-turns.json';
import budgetStop from './budget-stop.json';
import modelFallback from './model-fallback.json';
import toolHiding from './tool-hiding.json';
import refusal from './refusal.json';
import promptBlocked from './prompt-blocked.json';
import reactiveCompact from './reactive-compact.json';
// teams: teammates, mailboxes, claiming, the protocol
import teamSplitTasks from './team-split-tasks.json';
import teamClaimRace from './team-claim-race.json';
import teamPlanApproval from './team-plan-approval.json';
import teamShutdown from './team-shutdown.json';
import teamOtherTab from './team-other-tab.json';
// extending: custom tools and golden tests
import customToolLesson from './custom-tool.json';
import goldenHookRegression from './golden-hook-regression.json';
// extending: a real .claude/ brought in as it is
import layeredClaudeSettings from './layered-claude-settings.json';
// extending: MCP
import mcpInPageServer from './mcp-in-page-server.json';
// hooks: the events a short run never meets
import hookEventsTour from './hook-events-tour.json';

export const builtinDocs: ScenarioV1[] = [
  // the loop (the first, the default scenario, is validated on its own: first.ts)
  firstBuiltinDoc,
  ...[
    fixABug,
    maxTokensRecovery,
    flakyModel,
    // safety: permissions and hooks
    denyBeatsAllow,
    askPermission,
    compoundCommand,
    planMode,
    pretoolUseHookBlocks,
    hookRewritesCommand,
    stopHookKeepsWorking,
    // context: the five layers and the cache
    budgetReduction,
    snipWindow,
    microcompactCacheAware,
    contextCollapse,
    autoCompact,
    cacheBreakage,
    memoryClaudeMd,
    summaryToMemory,
    // lessons: several prompts, notes and questions
    lessonFollowUps,
    // agents: skills, task graph, background work, steering
    skillOnDemand,
    taskGraph,
    backgroundTests,
    steeringMidRun,
    // the sandbox's node and git
    nodeProjectBug,
    // replays: a recorded run whose tools no longer return what the recording saw
    replayDiverges,
    // agents: plans and subagents
    planWithTodos,
    delegateParallelSubagents,
    customSubagent,
    // agents: isolated workspaces and overlap detection
    isolatedWorkspacesOverlap,
    isolatedWorkspacesGit,
    // course: continue sites, exits and tool hiding
    emptyReply,
    maxTurns,
    budgetStop,
    modelFallback,
    toolHiding,
    refusal,
    promptBlocked,
    reactiveCompact,
    // teams
    teamSplitTasks,
    teamClaimRace,
    teamPlanApproval,
    teamShutdown,
    teamOtherTab,
    // extending: custom tools and golden tests
    customToolLesson,
    goldenHookRegression,
    // extending
    layeredClaudeSettings,
    // extending: MCP servers
    mcpInPageServer,
    hookEventsTour,
  ].map(migrateBuiltin),
];

export const builtinScenarios: Scenario[] = builtinDocs.map((d) => toRunnableScenario(d, 0));

export function findBuiltinScenario(id: string): Scenario | undefined {
  return builtinScenarios.find((s) => s.id === id);
}
