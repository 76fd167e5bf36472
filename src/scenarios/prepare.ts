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
import { createScriptedClient } from '../model/scripted/client.ts';
import type { Scenario } from './schema.ts';
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
  /** Pause between streamed chunks of the scripted model, for a readable pace in the UI. */
  scriptedChunkDelayMs?: number;
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
      ...(opts.scriptedChunkDelayMs ? { chunkDelayMs: opts.scriptedChunkDelayMs } : {}),
    });
  }
  const modelId = opts.modelId ?? (scenario.model.kind === 'anthropic' ? scenario.model.model : 'scripted');

  const input: LoopInput = {
    messages: [...history, { role: 'user', content: opts.prompt ?? scenario.prompt }],
    system: scenario.settings.system ?? DEFAULT_SYSTEM_PROMPT,
    tools: builtinTools(),
    model: modelId,
    maxTokens: scenario.settings.maxTokens,
    maxTurns: scenario.settings.maxTurns,
    cwd: sandbox.workdir,
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const deps: LoopDeps = {
    model,
    sandbox,
    clock,
    ids: opts.ids ?? randomIds,
    files: opts.files ?? new FileState(),
  };
  return { input, deps };
}

async function seedFiles(sandbox: Sandbox, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await sandbox.fs.writeFile(`${sandbox.workdir}/${path}`, content);
  }
}
