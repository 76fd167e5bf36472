/**
 * Turns a scenario into the arguments of `agentLoop`: seeds the sandbox with the scenario's
 * files, builds the tools and (unless one is passed in) the scripted model. Shared by the UI and
 * the headless runner so both run a scenario exactly alike.
 *
 * Its options and result are in `prepare-options.ts`, the seeding of files in `seed-files.ts`.
 */
import { loadDocumentEngines } from '../harness/util/index.ts';
import type { LoopDeps, LoopInput } from '../harness/index.ts';
import { realClock, randomIds } from '../harness/clock.ts';
import { FileState } from '../harness/tools/index.ts';
import { builtinTools } from '../harness/tools/index.ts';
import type { LoopHooks } from '../harness/index.ts';
import { DEFAULT_PRICE_TABLE } from '../harness/cost/index.ts';
import { sandboxWithEnv } from '../sandbox/with-env.ts';
import { liveCustomTools, livePool, withCustomTools } from './prepare-custom-tools.ts';
import { TODO_TOOL_NAME } from '../harness/agents/index.ts';
import { prepareMemory } from '../harness/memory/index.ts';
import { withUserContent } from '../harness/index.ts';
import { mergeSettings, permissionContextOf, resolveMode } from '../harness/settings/index.ts';
import { applyTrust } from '../harness/trust/index.ts';
import { loadCommands } from '../harness/commands/index.ts';
import { documentKey } from '../harness/trust/index.ts';
import { memoryStoreForRun } from './memory-policy.ts';
import { createScriptedClient } from '../model/scripted/client.ts';
import { deterministicSummarizer, modelCollapseSummarizer, parseContextSettings } from '../harness/context/index.ts';
import { deferredToolNames } from '../harness/index.ts';
import type { ContextSettingsInput } from '../harness/context/index.ts';
import { harnessSettingsOf, type Scenario } from '../scenarios/schema.ts';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt.ts';
import { prepareAgents } from './prepare-agents.ts';
import { seedGitRepo } from './git-seed.ts';
import { sandboxSettingsScopes } from './sandbox-settings-scopes.ts';
import { agentToolPool, loadDefinitions } from '../harness/agents/index.ts';
import { isolatedTeammateWorkspace } from '../harness/agents/index.ts';
import { withTeamEnd } from '../harness/agents/index.ts';
import { DEFAULT_HEARTBEAT_MS } from '../harness/agents/index.ts';
import { agentLoop } from '../harness/index.ts';
import type { RunResult } from '../harness/index.ts';
import type { TraceEvent } from '../harness/trace.ts';
import { scriptedAgentModels } from '../model/scripted/agent-scripts.ts';
import { hasMcpJson, prepareMcp } from './prepare-mcp.ts';
import { seedFiles } from './seed-files.ts';
import type { PrepareOptions, PreparedRun } from './prepare-options.ts';

export type { PrepareOptions, PreparedRun } from './prepare-options.ts';
export { USER_MEMORY_FILE } from './seed-files.ts';

/**
 * The prepared run's generator: the agent loop, and when it has a team, the team's end before
 * the lead's `run.end` (`withTeamEnd`: nobody left running, no copy left unmerged). `input`
 * replaces the prepared one (a fork's whole history).
 */
export function runPrepared(p: PreparedRun, input: LoopInput = p.input): AsyncGenerator<TraceEvent, RunResult> {
  const loop = agentLoop(input, p.deps);
  if (!p.team) return loop;
  return withTeamEnd(loop, p.team, { clock: p.deps.clock, ...(p.teamEndTimeoutMs !== undefined ? { timeoutMs: p.teamEndTimeoutMs } : {}), ...(input.signal ? { signal: input.signal } : {}) });
}

export class ScenarioModelMissingError extends Error {}

export async function prepareRun(opts: PrepareOptions): Promise<PreparedRun> {
  const { scenario, sandbox } = opts;
  // Settings files, tier patterns and hook matchers are read with yaml and RE2 (loaded on demand, `engines.ts`).
  await loadDocumentEngines();
  const clock = opts.clock ?? realClock;
  const history = opts.history ?? [];
  if (history.length === 0 && !opts.afterClear) {
    if (!opts.seeded) await seedFiles(sandbox, scenario.files);
    if (scenario.settings.git?.init) await seedGitRepo(sandbox, scenario.settings.git.message);
  }

  let model = opts.model;
  // Report cache reads and writes as the API would, so the cache panel has real numbers offline.
  const scriptedOpts = { clock, simulateCache: true, ...(opts.scriptedChunkDelayMs ? { chunkDelayMs: opts.scriptedChunkDelayMs } : {}) };
  if (!model) {
    if (scenario.model.kind !== 'scripted') {
      throw new ScenarioModelMissingError(
        `Scenario "${scenario.title}" runs on a live model (${scenario.model.model}): add an API key in Settings, or pick a scripted scenario.`,
      );
    }
    model = createScriptedClient(scenario.model.turns, { ...scriptedOpts, ...(opts.scriptedToolIdStart ? { toolIdStart: opts.scriptedToolIdStart } : {}) });
  }

  const settings = applyTrust(harnessSettingsOf(scenario), opts.trusted ?? false);
  // The run's reads go out together: each is a round trip to the sandbox's worker (or IndexedDB), and
  // one after another they were ~25 ms of a cold page's first Step. None depends on another's result.
  const documentRead = opts.memoryStore ? Promise.resolve(opts.document ?? documentKey(scenario).then((hash) => ({ id: scenario.id, title: scenario.title, hash }))) : Promise.resolve(undefined);
  const [document, fromSandbox, memory, commands, agents, definitions, hasProjectMcp] = await Promise.all([
    documentRead,
    // Like Claude Code: the sandbox's own .claude/settings.json and settings.local.json (a scope passed in wins).
    sandboxSettingsScopes(sandbox, opts.settingsScopes ?? [], opts.trusted ?? false),
    // Memory is chosen once, at a conversation's first prompt: CLAUDE.md files plus relevant memories.
    history.length === 0 && opts.memory === undefined
      ? documentRead.then((doc) =>
          prepareMemory({
            fs: sandbox.fs,
            cwd: sandbox.workdir,
            prompt: opts.prompt ?? scenario.prompt,
            now: clock.now(),
            ...(opts.memoryStore ? { store: opts.memoryStore } : {}),
            ...(doc ? { documentHash: doc.hash } : {}),
            ...(opts.documentContext === 'drop' ? { skipClaudeMd: true } : {}),
          }),
        )
      : undefined,
    // Custom slash commands: listed always, run only when the document is trusted (their prompt and allowed-tools act).
    loadCommands(sandbox.fs, sandbox.workdir, { trusted: opts.trusted ?? false }),
    prepareAgents({ scenario, sandbox, firstRun: history.length === 0, ...(opts.skillFiles ? { skillFiles: opts.skillFiles } : {}), ...(opts.steering ? { steering: opts.steering } : {}), ...(opts.agentTools ? { extraFeatures: opts.agentTools } : {}) }),
    // The subagent definitions (`.claude/agents/`), for the agent tool.
    loadDefinitions(sandbox.fs, sandbox.workdir),
    // Whether the project has a `.mcp.json` (what MCP does is decided below, once the settings are read).
    hasMcpJson(sandbox),
  ]);
  const scopes = [...(opts.settingsScopes ?? []), ...fromSandbox.scopes].map((sc) => ({ ...sc, settings: applyTrust(sc.settings, opts.trusted ?? false) }));
  const merged = mergeSettings([...scopes, { source: 'scenario', settings }]);
  const fromScopes = permissionContextOf(merged, sandbox.workdir, opts.mode ? { mode: opts.mode } : {});
  // The command line's rules (`--allowedTools` / `--disallowedTools`) are the user's own: after trust, first in precedence.
  const withCli = opts.cliRules?.length ? { ...fromScopes, rules: [...opts.cliRules, ...fromScopes.rules] } : fromScopes;
  // Judge commands on the AST of the shell that will run them, when we have its parser.
  const permissions = opts.shellParser && sandbox.kind === 'just-bash' ? { ...withCli, shell: opts.shellParser } : withCli;
  // Settings' `model` applies to a live run nobody chose a model for (as Claude Code's does, below --model).
  const modelId = opts.modelId ?? (scenario.model.kind === 'anthropic' ? (merged.model?.id ?? scenario.model.model) : 'scripted');
  // Settings' `env`: the environment of every command the run starts (tools and hooks).
  const runSandbox = Object.keys(merged.env).length > 0 ? sandboxWithEnv(sandbox, merged.env) : sandbox;
  const hooks: LoopHooks | undefined =
    Object.keys(merged.hooks).length > 0
      ? {
          config: merged.hooks,
          session: { sessionId: opts.sessionId ?? `scenario-${scenario.id}`, cwd: sandbox.workdir, permissionMode: permissions.mode },
          ...(opts.jsRunner ? { jsRunner: opts.jsRunner } : {}),
          ...(opts.httpHookClient ? { httpClient: opts.httpHookClient, httpEnv: { ...opts.httpHookEnv, ...merged.env } } : {}),
          ...(opts.asyncHooks ? { asyncHooks: opts.asyncHooks } : {}),
          // Prompt hooks ask the live model (a scripted one has only the scenario's own replies).
          ...(opts.model ? { promptModel: { client: opts.model, model: modelId } } : {}),
        }
      : undefined;

  // The approval keys (`enableAllProjectMcpServers`, `enabledMcpjsonServers`) count from every scope, the sandbox's own files too.
  const mcpRun = await prepareMcp(opts.mcp, { scenario, sandbox, trusted: opts.trusted ?? false, settingsScopes: scopes, now: () => clock.now(), hasProjectFile: hasProjectMcp, ...(opts.signal ? { signal: opts.signal } : {}) });
  // Subagents: a live client serves every agent; a scripted model plays each child's own turns.
  const live = opts.model;
  const custom = liveCustomTools(opts.liveCustomTools ?? (() => scenario.settings.customTools), opts.trusted ?? false, opts.toolRunner);
  const { tools, team } = await agentToolPool({
    sandbox: runSandbox,
    definitions,
    // Children get the same base tools as the parent (with the scenario's skills, tasks, background).
    base: () => withCustomTools([...agents.tools(builtinTools()), ...mcpRun.tools], custom),
    runtime: {
      modelFor: live ? () => live : scriptedAgentModels(scenario.model.kind === 'scripted' ? (scenario.model.agents ?? {}) : {}, scriptedOpts),
      modelId,
      ...(opts.modelAliases ? { modelAliases: opts.modelAliases } : {}),
      maxTokens: scenario.settings.maxTokens,
      permissions,
      ...(opts.askPermission ? { prompt: opts.askPermission } : {}),
      ...(opts.sessionGrants ? { sessionGrants: opts.sessionGrants } : {}),
      ...(hooks ? { hooks } : {}),
      ...(opts.model ? { collapseSummarize: modelCollapseSummarizer(opts.model, { model: modelId }) } : { summarize: deterministicSummarizer }),
      ...(opts.context || scenario.settings.context ? { context: { ...scenario.settings.context, ...opts.context } as ContextSettingsInput } : {}),
      // Children defer the same tools as the parent (their own core tools plus tool_search).
      ...((opts.deferTools ?? scenario.settings.deferTools) ? { deferTools: true } : {}),
    },
    // Teams: teammates' models come from the same place as subagents' (model.agents keyed by name);
    // `isolation: overlay` teammates get isolated workspaces.
    ...(agents.teams
      ? {
          team: {
            clock,
            ids: opts.ids ?? randomIds,
            workspace: isolatedTeammateWorkspace,
            ...(opts.signal ? { signal: opts.signal } : {}),
            ...(scenario.settings.team?.requestTimeoutMs ? { requestTimeoutMs: scenario.settings.team.requestTimeoutMs } : {}),
            ...(scenario.settings.team?.releaseAfterMs !== undefined ? { releaseAfterMs: scenario.settings.team.releaseAfterMs } : {}),
            ...(scenario.settings.team?.joinTimeoutMs !== undefined ? { joinTimeoutMs: scenario.settings.team.joinTimeoutMs } : {}),
            ...(scenario.settings.team?.missedBeats !== undefined ? { missedBeats: scenario.settings.team.missedBeats } : {}),
            // Tabs beat only once a transport is attached (the page's tab channel); headless runs never beat.
            heartbeatMs: scenario.settings.team?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
            // A tab that only hosts a teammate of another tab's lead (`?teammate=`).
            ...(opts.teammateTab ? { hostsLead: false } : {}),
          },
        }
      : {}),
  });

  // Deferred tools: names only until the model loads them (one cache break per load, never a reorder).
  const contextSettings = opts.context || scenario.settings.context ? ({ ...scenario.settings.context, ...opts.context } as ContextSettingsInput) : undefined;
  const deferTools = (opts.deferTools ?? scenario.settings.deferTools) ? deferredToolNames(tools, parseContextSettings(contextSettings).windowTokens) : [];
  const input: LoopInput = {
    // A resumed history can end with the user's side (an interrupted turn closed with results):
    // the prompt joins that message so roles keep alternating.
    messages:
      history.length > 0 && history[history.length - 1]!.role === 'user'
        ? withUserContent(history, [{ type: 'text', text: opts.prompt ?? scenario.prompt }])
        : [...history, { role: 'user', content: opts.prompt ?? scenario.prompt }],
    system: opts.documentContext === 'drop' ? DEFAULT_SYSTEM_PROMPT : (scenario.settings.system ?? DEFAULT_SYSTEM_PROMPT),
    tools,
    ...(opts.liveCustomTools ? { toolPool: livePool(tools, custom, TODO_TOOL_NAME) } : {}),
    ...(deferTools.length > 0 ? { deferTools } : {}),
    model: modelId,
    maxTokens: scenario.settings.maxTokens,
    maxTurns: scenario.settings.maxTurns,
    cwd: sandbox.workdir,
    permissions,
    ...(opts.sessionStart ? { sessionStart: opts.sessionStart } : history.length === 0 && !opts.afterClear ? { sessionStart: 'startup' as const } : {}),
    ...(opts.sessionEnd ? { sessionEnd: opts.sessionEnd } : {}),
    ...(opts.context || scenario.settings.context ? { context: { ...scenario.settings.context, ...opts.context } as ContextSettingsInput } : {}),
    ...(opts.contextState ? { contextState: opts.contextState } : {}),
    ...(opts.countTokens ? { countTokens: true } : {}),
    ...(opts.memory ? { memory: opts.memory } : {}),
    ...(memory?.text ? { memory: memory.text } : {}),
    ...(memory ? { memoryInjected: memory.event } : {}),
    ...(fromSandbox.event ? { settingsRead: { ...fromSandbox.event, mode: permissions.mode, modeFrom: opts.mode && permissions.mode === opts.mode ? 'you' : merged.modeSource } } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...agents.input,
    ...(commands.commands.length > 0 || commands.problems.length > 0 ? { commands } : {}),
    ...(mcpRun.events.length ? { preludeEvents: mcpRun.events } : {}),
    ...moneyInput(opts, scenario),
  };
  const deps: LoopDeps = {
    model,
    sandbox: runSandbox,
    clock,
    ids: opts.ids ?? randomIds,
    files: opts.files ?? new FileState(),
    ...(hooks ? { hooks } : {}),
    ...(opts.askPermission ? { prompt: opts.askPermission } : {}),
    ...(opts.sessionGrants ? { sessionGrants: opts.sessionGrants } : {}),
    ...(opts.memoryStore && document
      ? {
          memoryStore: memoryStoreForRun({
            store: opts.memoryStore,
            document,
            trusted: opts.trusted ?? false,
            promptFrom: promptFromOf(opts),
            ...(opts.memorySessionId ? { sessionId: opts.memorySessionId } : opts.sessionId ? { sessionId: opts.sessionId } : {}),
          }),
        }
      : {}),
    ...(opts.memoryByModel && opts.model && opts.memoryStore && memoryWritable(opts) ? { memoryModel: { client: opts.model, model: modelId } } : {}),
    // A scripted model has no turn to spare for a summary: summarise without a model.
    // A live one also writes collapse summaries (collapse.summarizer, context/collapse-model.ts).
    ...(opts.model ? { collapseSummarize: modelCollapseSummarizer(opts.model, { model: modelId }) } : { summarize: deterministicSummarizer }),
  };
  const chosen = resolveMode(merged, opts.mode);
  return {
    input,
    deps,
    modeNotes: [...merged.modeNotes, ...(chosen.note ? [chosen.note] : [])],
    dispose: mcpRun.dispose,
    ...(team ? { team } : {}),
    ...(scenario.settings.team?.endTimeoutMs !== undefined ? { teamEndTimeoutMs: scenario.settings.team.endTimeoutMs } : {}),
  };
}

/** The budget and the fallback model: the caller's over the scenario's. */
function moneyInput(opts: PrepareOptions, scenario: Scenario): Pick<LoopInput, 'budget' | 'fallbackModel'> {
  const maxUsd = opts.maxBudgetUsd ?? scenario.settings.maxBudgetUsd;
  const fallbackModel = opts.fallbackModel ?? scenario.settings.fallbackModel;
  return {
    ...(maxUsd !== undefined ? { budget: { maxUsd, prices: opts.prices ?? DEFAULT_PRICE_TABLE } } : {}),
    ...(fallbackModel ? { fallbackModel } : {}),
  };
}

/** Whose words the run's prompt is: the document's own unless the person typed one. */
function promptFromOf(opts: Pick<PrepareOptions, 'promptFrom' | 'prompt'>): 'user' | 'document' {
  return opts.promptFrom ?? (opts.prompt === undefined ? 'document' : 'user');
}

/** Whether this run's memories may be saved at all (`memoryStoreForRun` refuses an untrusted document's). */
function memoryWritable(opts: Pick<PrepareOptions, 'promptFrom' | 'prompt' | 'trusted'>): boolean {
  return promptFromOf(opts) === 'user' || opts.trusted === true;
}
