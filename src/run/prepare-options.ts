/**
 * What `prepareRun` takes (`PrepareOptions`: the scenario, the sandbox, and every port or
 * setting the page, the headless runner or a test binds over the scenario's) and what it gives
 * back (`PreparedRun`). Import them from `prepare.ts`.
 */
import type { AsyncHookInbox, SessionEndReason } from '../harness/hooks/index.ts';
import type { AgentFeature, ModelAliasOverrides, SkillFile, SteeringInbox, Team } from '../harness/agents/index.ts';
import type { LoopDeps, LoopInput, Prompter } from '../harness/index.ts';
import type { Message } from '../harness/messages.ts';
import type { Clock, HttpHookClient, IdGen, JsHookRunner, MemoryStore, ModelClient, Sandbox, UserToolRunner } from '../harness/ports.ts';
import type { CustomToolDefinition, FileState } from '../harness/tools/index.ts';
import type { PermissionMode, SessionGrants, ShellParser, SourcedRule } from '../harness/permissions/index.ts';
import type { PriceTable } from '../harness/cost/index.ts';
import type { ScopedSettings } from '../harness/settings/index.ts';
import type { ContextSettingsInput, ContextState } from '../harness/context/index.ts';
import type { Scenario } from '../scenarios/schema.ts';
import type { RunDocument } from './memory-policy.ts';
import type { PrepareMcpOptions } from './prepare-mcp.ts';

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
  /**
   * The sandbox already holds `scenario.files` exactly as `seedFiles` writes them, and nothing was
   * written since (the page seeds a fresh sandbox while it boots, so the first Step does not): a
   * new conversation does not write them again.
   */
  seeded?: boolean;
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
   * the page (`ui/state/start-run.ts`, loaded lazily) and the tests pass `justBashShellParser`.
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
