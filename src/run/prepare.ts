/**
 * Turns a scenario into the arguments of `agentLoop`: seeds the sandbox with the scenario's
 * files, builds the tools and (unless one is passed in) the scripted model. Shared by the UI and
 * the headless runner so both run a scenario exactly alike.
 */
import type { AsyncHookInbox, SessionEndReason } from '../harness/hooks/index.ts';
import type { ModelAliasOverrides } from '../harness/agents/index.ts';
import type { LoopDeps, LoopInput } from '../harness/index.ts';
import type { Message } from '../harness/messages.ts';
import type { Clock, IdGen, ModelClient, Sandbox } from '../harness/ports.ts';
import { realClock, randomIds } from '../harness/clock.ts';
import { FileState } from '../harness/tools/index.ts';
import { builtinTools } from '../harness/tools/index.ts';
import type { Prompter } from '../harness/index.ts';
import type { LoopHooks } from '../harness/index.ts';
import type { SessionGrants, ShellParser } from '../harness/permissions/index.ts';
import type { PermissionMode, SourcedRule } from '../harness/permissions/index.ts';
import { DEFAULT_PRICE_TABLE, type PriceTable } from '../harness/cost/index.ts';
import type { HttpHookClient, JsHookRunner, MemoryStore, UserToolRunner } from '../harness/ports.ts';
import { HOME_DIR } from '../harness/ports.ts';
import { sandboxWithEnv } from '../sandbox/with-env.ts';
import { liveCustomTools, livePool, withCustomTools } from './prepare-custom-tools.ts';
import type { CustomToolDefinition } from '../harness/tools/index.ts';
import { TODO_TOOL_NAME } from '../harness/agents/index.ts';
import { prepareMemory } from '../harness/memory/index.ts';
import { withUserContent } from '../harness/index.ts';
import { mergeSettings, permissionContextOf, resolveMode, type ScopedSettings } from '../harness/settings/index.ts';
import { applyTrust } from '../harness/trust/index.ts';
import { loadCommands } from '../harness/commands/index.ts';
import { documentKey } from '../harness/trust/index.ts';
import { memoryStoreForRun, type RunDocument } from './memory-policy.ts';
import { createScriptedClient } from '../model/scripted/client.ts';
import { deterministicSummarizer, modelCollapseSummarizer, parseContextSettings } from '../harness/context/index.ts';
import { deferredToolNames } from '../harness/index.ts';
import type { ContextState } from '../harness/context/index.ts';
import type { ContextSettingsInput } from '../harness/context/index.ts';
import { harnessSettingsOf, type Scenario } from '../scenarios/schema.ts';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt.ts';
import { prepareAgents } from './prepare-agents.ts';
import type { SkillFile } from '../harness/agents/index.ts';
import type { SteeringInbox } from '../harness/agents/index.ts';
import type { AgentFeature } from '../harness/agents/index.ts';
import { seedGitRepo } from './git-seed.ts';
import { sandboxSettingsScopes } from './sandbox-settings-scopes.ts';
import { agentToolPool } from '../harness/agents/index.ts';
import { isolatedTeammateWorkspace } from '../harness/agents/index.ts';
import { withTeamEnd } from '../harness/agents/index.ts';
import { DEFAULT_HEARTBEAT_MS } from '../harness/agents/index.ts';
import type { Team } from '../harness/agents/index.ts';
import { agentLoop } from '../harness/index.ts';
import type { RunResult } from '../harness/index.ts';
import type { TraceEvent } from '../harness/trace.ts';
import { scriptedAgentModels } from '../model/scripted/agent-scripts.ts';
import { prepareMcp, type PrepareMcpOptions } from './prepare-mcp.ts';

export type PrepareOptions = {
  scenario: Scenario;
  sandbox: Sandbox;
  /** Overrides the scenario's model (e.g. a live Anthropic client). */
  model?: ModelClient;
  /** Model id for the request; defaults to the scenario's, or `scripted`. */
  modelId?: string;
  /** Overrides the scenario's prompt. */
  prompt?: string;
  /**
   * A new conversation after `/clear`: the sandbox keeps its files (nothing is seeded again) and
   * SessionStart already fired with source `clear`, so it does not fire `startup` now.
   */
  afterClear?: boolean;
  /** Earlier messages of this conversation, for a follow-up prompt; files are seeded only when empty. */
  history?: Message[];
  clock?: Clock;
  ids?: IdGen;
  signal?: AbortSignal;
  /** This tab hosts a teammate of a team whose lead runs in another tab (`?teammate=`): the team does not host the lead. */
  teammateTab?: boolean;
  files?: FileState;
  /** The scripted model's generated tool ids start after this number (a resumed script keeps ids unique). */
  scriptedToolIdStart?: number;
  /** Pause between streamed chunks of the scripted model, for a readable pace in the UI. */
  scriptedChunkDelayMs?: number;
  /**
   * Whether the user trusts what this scenario brings that can act (hooks, allow rules,
   * permissive modes). Default false: deny and ask rules apply, nothing else does.
   */
  trusted?: boolean;
  /** A mode chosen in the UI, over the scenario's. */
  mode?: PermissionMode;
  /**
   * The executor's own shell parser, for the permission check (`PermissionContext.shell`). Bound
   * only when the sandbox is just-bash (another executor parses differently); the headless runner
   * and the tests pass `justBashShellParser`; the page cannot (see `src/run/README.md`).
   */
  shellParser?: ShellParser;
  /** Rules from the command line (the CLI scope): never trust-filtered, they are the user's own. */
  cliRules?: SourcedRule[];
  /** Prices for the budget check (the page's edited table, the runner's `--price-table`); default the built-in table. */
  prices?: PriceTable;
  /** A dollar ceiling over the scenario's `maxBudgetUsd` (the page's setting, `--max-budget-usd`). */
  maxBudgetUsd?: number;
  /** A fallback model over the scenario's `fallbackModel` (`--fallback-model`). */
  fallbackModel?: string;
  /** Asks the person about a tool call (the UI's dialog); absent headless. */
  askPermission?: Prompter;
  sessionGrants?: SessionGrants;
  /** Runs `type: "js"` hooks (a Worker in the browser, worker_threads in Node). */
  jsRunner?: JsHookRunner;
  /** POSTs `type: "http"` hooks (the page's allow-listed client; the runner's Node client). */
  httpHookClient?: HttpHookClient;
  /** Variables http hooks' `allowedEnvVars` may name besides settings' `env` (the runner passes its process env). */
  httpHookEnv?: Readonly<Record<string, string | undefined>>;
  /** Background hooks of the session (keep one across prompts so a hook ending after a run reports at the next). */
  asyncHooks?: AsyncHookInbox;
  /** Runs `js` custom tools (the user-code frame in the browser, worker_threads in Node). */
  toolRunner?: UserToolRunner;
  /** For hook inputs; default `scenario-<id>`. */
  sessionId?: string;
  /** The context pipeline's state from the previous run of this conversation. */
  contextState?: ContextState;
  /** Context settings over the scenario's (the UI's what-if and settings). */
  context?: ContextSettingsInput;
  /**
   * Memory text to inject (CLAUDE.md and chosen memories). For a follow-up, pass the first run's
   * text: recomputing it would change message 0 and break the cached prefix.
   */
  memory?: string;
  /** Memories to rank into the first prompt, and where "remember: …" facts are saved. */
  memoryStore?: MemoryStore;
  /** Ask the model for an exact input count before each call (live runs: `count_tokens`). */
  countTokens?: boolean;
  /** Keep rarely used tools deferred behind `tool_search` (live runs pass true); default the scenario's `deferTools`. */
  deferTools?: boolean;
  /**
   * Settings scopes besides the scenario's (a folder's `.claude/settings.json` as `project`,
   * `settings.local.json` as `local`), merged with it; trust applies to them as to the scenario.
   */
  settingsScopes?: ScopedSettings[];
  /**
   * The document this run comes from (its trust key tags what it remembers, see
   * `memory-policy.ts`); default: this scenario, keyed by `documentKey`.
   */
  document?: RunDocument;
  /** The session saved memories name (asked at save time); default `sessionId`. */
  memorySessionId?: () => string | undefined;
  /**
   * `drop`: leave out what an untrusted document would add to the request — its system prompt
   * (the default one is used) and its CLAUDE.md files (not injected). See `live-context.ts`.
   */
  documentContext?: 'use' | 'drop';
  /** Who wrote this run's prompt; default `document` when `prompt` is not given, else `user`. */
  promptFrom?: 'user' | 'document';
  /** SessionStart source; default `startup` for a new conversation, none for a follow-up. */
  sessionStart?: 'startup' | 'resume' | 'clear' | 'compact' | 'fork';
  /** This run ends the session (a headless run, `/clear`): SessionEnd fires with this reason at its end. */
  sessionEnd?: SessionEndReason;
  // agents
  /** The built-in skills (the repo's `skills/` folder, from a `SkillFilesLoader`). */
  skillFiles?: SkillFile[];
  /** Messages the person queues while the run works (the live steering queue). */
  steering?: SteeringInbox;
  /** Agent tools on top of the scenario's `settings.agentTools` (a live run offers them all). */
  agentTools?: AgentFeature[];
  /**
   * Model-written memories: after a completed live run, the live model is asked what to remember
   * (a bounded no-tools call) besides the rules. Only where the store may be written (the user's
   * own prompt, or a trusted document); a scripted replay keeps the deterministic rules.
   */
  memoryByModel?: boolean;
  /** The environment's model alias targets / subagent model (the headless runner reads them). */
  modelAliases?: ModelAliasOverrides;
  /** MCP servers: the session's registry, or a connector for this run's `.mcp.json` (see prepare-mcp.ts). */
  mcp?: PrepareMcpOptions;
  /**
   * The custom tools as they are *now* (the page's Tools tab edits them while a run works): read
   * before every request, so a tool saved mid-run joins the next request (`tools.changed`), and a
   * subagent started later gets them too. Absent: the scenario's, fixed for the run.
   */
  liveCustomTools?: () => readonly CustomToolDefinition[] | undefined;
};

/** `modeNotes`: why a mode the settings or the caller asked for is not the one in force (empty when it is). */
/** `dispose`: closes what the run opened for itself (MCP connections); call it after the run. */
export type PreparedRun = {
  input: LoopInput;
  deps: LoopDeps;
  modeNotes: string[];
  dispose: () => Promise<void>;
  /** The run's team (a scenario with `agentTools: ["teams"]`): connect other tabs to it, end it with the run (`runPrepared`). */
  team?: Team;
  /** How long teammates have to answer the shutdown request at the run's end. */
  teamEndTimeoutMs?: number;
};

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
  const clock = opts.clock ?? realClock;
  const history = opts.history ?? [];
  if (history.length === 0 && !opts.afterClear) {
    await seedFiles(sandbox, scenario.files);
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
  // Like Claude Code: the sandbox's own .claude/settings.json and settings.local.json (a scope passed in wins).
  const fromSandbox = await sandboxSettingsScopes(sandbox, opts.settingsScopes ?? [], opts.trusted ?? false);
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

  const document = opts.memoryStore ? (opts.document ?? { id: scenario.id, title: scenario.title, hash: await documentKey(scenario) }) : undefined;
  // Memory is chosen once, at a conversation's first prompt: CLAUDE.md files plus relevant memories.
  const memory =
    history.length === 0 && opts.memory === undefined
      ? await prepareMemory({
          fs: sandbox.fs,
          cwd: sandbox.workdir,
          prompt: opts.prompt ?? scenario.prompt,
          now: clock.now(),
          ...(opts.memoryStore ? { store: opts.memoryStore } : {}),
          ...(document ? { documentHash: document.hash } : {}),
          ...(opts.documentContext === 'drop' ? { skipClaudeMd: true } : {}),
        })
      : undefined;

  // The approval keys (`enableAllProjectMcpServers`, `enabledMcpjsonServers`) count from every scope, the sandbox's own files too.
  const mcpRun = await prepareMcp(opts.mcp, { scenario, sandbox, trusted: opts.trusted ?? false, settingsScopes: scopes, now: () => clock.now(), ...(opts.signal ? { signal: opts.signal } : {}) });
  // Custom slash commands: listed always, run only when the document is trusted (their prompt and allowed-tools act).
  const commands = await loadCommands(sandbox.fs, sandbox.workdir, { trusted: opts.trusted ?? false });
  const agents = await prepareAgents({ scenario, sandbox, firstRun: history.length === 0, ...(opts.skillFiles ? { skillFiles: opts.skillFiles } : {}), ...(opts.steering ? { steering: opts.steering } : {}), ...(opts.agentTools ? { extraFeatures: opts.agentTools } : {}) });
  // Subagents: a live client serves every agent; a scripted model plays each child's own turns.
  const live = opts.model;
  const custom = liveCustomTools(opts.liveCustomTools ?? (() => scenario.settings.customTools), opts.trusted ?? false, opts.toolRunner);
  const { tools, team } = await agentToolPool({
    sandbox: runSandbox,
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

/** The user's own memory file, as an imported `~/.claude/` brings it: seeded into the sandbox's home. */
export const USER_MEMORY_FILE = '~/.claude/CLAUDE.md';
/** The user's own slash commands (`~/.claude/commands/*.md`): seeded into the sandbox's home too. */
const USER_COMMANDS_PREFIX = '~/.claude/commands/';

/** The budget and the fallback model: the caller's over the scenario's. */
function moneyInput(opts: PrepareOptions, scenario: Scenario): Pick<LoopInput, 'budget' | 'fallbackModel'> {
  const maxUsd = opts.maxBudgetUsd ?? scenario.settings.maxBudgetUsd;
  const fallbackModel = opts.fallbackModel ?? scenario.settings.fallbackModel;
  return {
    ...(maxUsd !== undefined ? { budget: { maxUsd, prices: opts.prices ?? DEFAULT_PRICE_TABLE } } : {}),
    ...(fallbackModel ? { fallbackModel } : {}),
  };
}

async function seedFiles(sandbox: Sandbox, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    // Only the user's CLAUDE.md and commands go to the home directory; every other path stays under the project.
    const home = path === USER_MEMORY_FILE || path.startsWith(USER_COMMANDS_PREFIX);
    await sandbox.fs.writeFile(home ? `${HOME_DIR}/${path.slice(2)}` : `${sandbox.workdir}/${path}`, content);
  }
}

/** Whose words the run's prompt is: the document's own unless the person typed one. */
function promptFromOf(opts: Pick<PrepareOptions, 'promptFrom' | 'prompt'>): 'user' | 'document' {
  return opts.promptFrom ?? (opts.prompt === undefined ? 'document' : 'user');
}

/** Whether this run's memories may be saved at all (`memoryStoreForRun` refuses an untrusted document's). */
function memoryWritable(opts: Pick<PrepareOptions, 'promptFrom' | 'prompt' | 'trusted'>): boolean {
  return promptFromOf(opts) === 'user' || opts.trusted === true;
}
