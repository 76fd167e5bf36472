/**
 * Turns a scenario into the arguments of `agentLoop`: seeds the sandbox with the scenario's
 * files, builds the tools and (unless one is passed in) the scripted model. Shared by the UI and
 * the headless runner so both run a scenario exactly alike.
 */
import type { LoopDeps, LoopInput } from '../harness/loop/types.ts';
import type { Message } from '../harness/messages.ts';
import type { Clock, IdGen, ModelClient, Sandbox } from '../harness/ports.ts';
import { realClock, randomIds } from '../harness/clock.ts';
import { FileState } from '../harness/tools/file-state.ts';
import { builtinTools } from '../harness/tools/index.ts';
import type { Prompter } from '../harness/loop/run-tools.ts';
import type { LoopHooks } from '../harness/loop/hook-site.ts';
import type { SessionGrants } from '../harness/permissions/session-grants.ts';
import type { PermissionMode } from '../harness/permissions/types.ts';
import type { JsHookRunner, MemoryStore } from '../harness/ports.ts';
import { prepareMemory } from '../harness/memory/prepare.ts';
import { withUserContent } from '../harness/loop/history.ts';
import { mergeSettings, permissionContextOf } from '../harness/settings/merge.ts';
import { applyTrust } from '../harness/trust/trust.ts';
import { createScriptedClient } from '../model/scripted/client.ts';
import { deterministicSummarizer } from '../harness/context/summarizer.ts';
import type { ContextState } from '../harness/context/state.ts';
import type { ContextSettingsInput } from '../harness/context/settings.ts';
import { harnessSettingsOf, type Scenario } from './schema.ts';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt.ts';

export type PrepareOptions = {
  scenario: Scenario;
  sandbox: Sandbox;
  /** Overrides the scenario's model (e.g. a live Anthropic client). */
  model?: ModelClient;
  /** Model id for the request; defaults to the scenario's, or `scripted`. */
  modelId?: string;
  /** Overrides the scenario's prompt. */
  prompt?: string;
  /** Earlier messages of this conversation, for a follow-up prompt; files are seeded only when empty. */
  history?: Message[];
  clock?: Clock;
  ids?: IdGen;
  signal?: AbortSignal;
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
  /** Asks the person about a tool call (the UI's dialog); absent headless. */
  askPermission?: Prompter;
  sessionGrants?: SessionGrants;
  /** Runs `type: "js"` hooks (a Worker in the browser, worker_threads in Node). */
  jsRunner?: JsHookRunner;
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
  /** SessionStart source; default `startup` for a new conversation, none for a follow-up. */
  sessionStart?: 'startup' | 'resume' | 'clear' | 'compact' | 'fork';
};

export type PreparedRun = { input: LoopInput; deps: LoopDeps };

export class ScenarioModelMissingError extends Error {}

export async function prepareRun(opts: PrepareOptions): Promise<PreparedRun> {
  const { scenario, sandbox } = opts;
  const clock = opts.clock ?? realClock;
  const history = opts.history ?? [];
  if (history.length === 0) await seedFiles(sandbox, scenario.files);

  let model = opts.model;
  if (!model) {
    if (scenario.model.kind !== 'scripted') {
      throw new ScenarioModelMissingError(
        `Scenario "${scenario.title}" runs on a live model (${scenario.model.model}): add an API key in Settings, or pick a scripted scenario.`,
      );
    }
    model = createScriptedClient(scenario.model.turns, {
      clock,
      // Report cache reads and writes as the API would, so the cache panel has real numbers offline.
      simulateCache: true,
      ...(opts.scriptedToolIdStart ? { toolIdStart: opts.scriptedToolIdStart } : {}),
      ...(opts.scriptedChunkDelayMs ? { chunkDelayMs: opts.scriptedChunkDelayMs } : {}),
    });
  }
  const modelId = opts.modelId ?? (scenario.model.kind === 'anthropic' ? scenario.model.model : 'scripted');

  const settings = applyTrust(harnessSettingsOf(scenario), opts.trusted ?? false);
  const merged = mergeSettings([{ source: 'scenario', settings }]);
  const permissions = permissionContextOf(merged, sandbox.workdir, opts.mode ? { mode: opts.mode } : {});
  const hooks: LoopHooks | undefined =
    Object.keys(merged.hooks).length > 0
      ? {
          config: merged.hooks,
          session: { sessionId: opts.sessionId ?? `scenario-${scenario.id}`, cwd: sandbox.workdir, permissionMode: permissions.mode },
          ...(opts.jsRunner ? { jsRunner: opts.jsRunner } : {}),
        }
      : undefined;

  // Memory is chosen once, at a conversation's first prompt: CLAUDE.md files plus relevant memories.
  const memory =
    history.length === 0 && opts.memory === undefined
      ? await prepareMemory({
          fs: sandbox.fs,
          cwd: sandbox.workdir,
          prompt: opts.prompt ?? scenario.prompt,
          now: clock.now(),
          ...(opts.memoryStore ? { store: opts.memoryStore } : {}),
        })
      : undefined;

  const input: LoopInput = {
    // A resumed history can end with the user's side (an interrupted turn closed with results):
    // the prompt joins that message so roles keep alternating.
    messages:
      history.length > 0 && history[history.length - 1]!.role === 'user'
        ? withUserContent(history, [{ type: 'text', text: opts.prompt ?? scenario.prompt }])
        : [...history, { role: 'user', content: opts.prompt ?? scenario.prompt }],
    system: scenario.settings.system ?? DEFAULT_SYSTEM_PROMPT,
    tools: builtinTools(),
    model: modelId,
    maxTokens: scenario.settings.maxTokens,
    maxTurns: scenario.settings.maxTurns,
    cwd: sandbox.workdir,
    permissions,
    ...(opts.sessionStart ? { sessionStart: opts.sessionStart } : history.length === 0 ? { sessionStart: 'startup' as const } : {}),
    ...(opts.context || scenario.settings.context ? { context: { ...scenario.settings.context, ...opts.context } as ContextSettingsInput } : {}),
    ...(opts.contextState ? { contextState: opts.contextState } : {}),
    ...(opts.countTokens ? { countTokens: true } : {}),
    ...(opts.memory ? { memory: opts.memory } : {}),
    ...(memory?.text ? { memory: memory.text } : {}),
    ...(memory ? { memoryInjected: memory.event } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const deps: LoopDeps = {
    model,
    sandbox,
    clock,
    ids: opts.ids ?? randomIds,
    files: opts.files ?? new FileState(),
    ...(hooks ? { hooks } : {}),
    ...(opts.askPermission ? { prompt: opts.askPermission } : {}),
    ...(opts.sessionGrants ? { sessionGrants: opts.sessionGrants } : {}),
    ...(opts.memoryStore ? { memoryStore: opts.memoryStore } : {}),
    // A scripted model has no turn to spare for a summary: summarise without a model.
    ...(opts.model ? {} : { summarize: deterministicSummarizer }),
  };
  return { input, deps };
}

async function seedFiles(sandbox: Sandbox, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await sandbox.fs.writeFile(`${sandbox.workdir}/${path}`, content);
  }
}
