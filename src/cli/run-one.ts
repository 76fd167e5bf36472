/**
 * One headless run: the sandbox, the model, `prepareRun` with every port the runner binds, the
 * loop printed as it goes (and written to the session file), then the transcript check and
 * `--write-back`. `runAllLessons` is `--all --quiet`: every built-in lesson replayed.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { RunResult } from '../harness/index.ts';
import type { ContextSettingsInput } from '../harness/context/index.ts';
import type { PriceTable } from '../harness/cost/index.ts';
import type { ModelClient, Sandbox } from '../harness/ports.ts';
import type { Scenario } from '../scenarios/schema.ts';
import type { ScriptedSteer } from '../harness/agents/index.ts';
import { EXIT, type CliArgs } from './args.ts';
import { sandboxFiles, writeBack } from './dir-workspace.ts';
import { copiedLine, copyGitIntoSandbox } from './dir-git.ts';
import type { Out } from './output.ts';
import { createCliSandbox } from './cli-sandbox.ts';
import { UsageError } from './usage-error.ts';
import { mergeContextSettings } from './context-flags.ts';
import { SessionFileWriter } from './session-files.ts';
import { shellParserOnDemand } from '../run/shell-parser-on-demand.ts';
import { startAfterNextRequestSent } from './request-sent.ts';
import { saveCodeCache } from './code-cache.ts';
import { DEFAULT_LIVE_MODEL, engine, library, runOptions } from './engine.ts';
import type { Conversation, RunPlan } from './plans.ts';

/** Ctrl-C came before the run's loop started: nothing ran, nothing is written back. */
export class StoppedBeforeRun extends Error {}

async function liveModel(): Promise<ModelClient> {
  const { anthropicClientFromEnv } = await import('../model/anthropic/client.ts');
  const model = anthropicClientFromEnv(process.env);
  if (!model) throw new UsageError('a live run needs ANTHROPIC_API_KEY in the environment (and ANTHROPIC_BASE_URL for another endpoint)');
  return model;
}

/** An untrusted document: what stays off, from every carrier (its settings, `.claude/` files, `.mcp.json`, tools), as the page's trust dialog lists it. */
async function untrustedNote(scenario: Scenario, out: Out): Promise<void> {
  const [{ scenarioCarriers }, { carriersAct, carrierLines }] = await Promise.all([import('../scenarios/actionable.ts'), import('../harness/trust/index.ts')]);
  const carriers = scenarioCarriers(scenario);
  if (!carriersAct(carriers)) return;
  out.stderr(`${scenario.id}: untrusted (pass --trust to turn these on):\n${carrierLines(carriers).map((l) => `  ${l}\n`).join('')}`);
}

/** Starts a run's sandbox thread (it loads just-bash there). */
export const startSandbox = (out: Out) => createCliSandbox((line) => out.stderr(`harness-playground: ${line}\n`));

/** `started`: a sandbox whose thread `main` started before reading the folder (the first run's); otherwise one starts here. */
export async function runOne(plan: RunPlan, args: CliArgs, out: Out, signal: AbortSignal, steers: ScriptedSteer[], prices: PriceTable, context: ContextSettingsInput, conv?: Conversation, started?: Promise<Sandbox>): Promise<RunResult> {
  const { scenario } = plan;
  const live = args.live || scenario.model.kind === 'anthropic';
  // The code cache, if the launcher asks for one (code-cache.ts): written once the first request
  // has left (start-up's code, while the response is awaited), or when a run without one ends.
  const cacheAfterSend = startAfterNextRequestSent(saveCodeCache);
  // The sandbox's thread starts (and loads just-bash there) while this one loads the engine and the SDK.
  const sandboxReady = started ?? startSandbox(out);
  let loaded;
  try {
    loaded = await Promise.all([live ? liveModel() : undefined, engine(), runOptions()]);
  } catch (e) {
    // No key, say: the thread that started meanwhile must not keep the process alive.
    cacheAfterSend.stop();
    await (await sandboxReady.catch(() => null))?.dispose();
    throw e;
  }
  const [model, { checkTranscript, prepareRun, runPrepared, realClock, randomIds, nodeSkillLoader, scriptedSteering, ALL_AGENT_FEATURES, createNodeToolRunner, modelAliasesFromEnv, Printer }, { cliRules, loadMcpConfigs, systemPromptOf }] = loaded;
  const sandbox = await sandboxReady;
  const sessionId = conv?.id ?? randomUUID();
  const notes = plan.dir?.notes ?? [];
  if (!plan.trusted) await untrustedNote(scenario, out);
  let disposeRun = async () => {};
  try {
    const modelId = args.model ?? (scenario.model.kind === 'anthropic' ? scenario.model.model : undefined);
    // A folder's .claude/settings.json and settings.local.json are in the sandbox: prepareRun reads them
    // there at run start (and reports them in a settings.read event), as for any scenario.
    // --max-turns and the context flags (context-flags.ts) over the scenario's or folder's settings.
    const withTurns: Scenario = {
      ...scenario,
      settings: {
        ...scenario.settings,
        ...(args.maxTurns ? { maxTurns: args.maxTurns } : {}),
        ...(Object.keys(context).length > 0 ? { context: mergeContextSettings(scenario.settings.context as ContextSettingsInput | undefined, context) as Scenario['settings']['context'] } : {}),
      },
    };
    const history = conv?.history ?? [];
    // prepareRun seeds the files only for a new conversation (the page keeps its sandbox); a
    // continued headless one starts from the folder as it is on disk now, as Claude Code does.
    if (history.length > 0) for (const [path, content] of Object.entries(scenario.files)) await sandbox.fs.writeFile(`${sandbox.workdir}/${path}`, content);
    // --dir's history: its .git byte for byte, or (said why) a fresh repository, which prepareRun
    // seeds from settings.git for a new conversation and this does for a continued one.
    if (plan.git?.kind === 'copy') {
      await copyGitIntoSandbox(sandbox, plan.git.files);
      out.stderr(`${scenario.id}: ${copiedLine(plan.git)}\n`);
    } else if (plan.git?.kind === 'seed') {
      if (history.length > 0 && scenario.settings.git) await (await import('../run/git-seed.ts')).seedGitRepo(sandbox, scenario.settings.git.message);
      out.stderr(`${scenario.id}: ${plan.git.why}\n`);
    }
    const shell = shellParserOnDemand();
    const prepared = await prepareRun({
      scenario: withTurns,
      sandbox,
      ...(model ? { model } : {}),
      ...(live ? { modelId: modelId ?? DEFAULT_LIVE_MODEL } : {}),
      ...(args.prompt !== undefined && !plan.dir ? { prompt: args.prompt } : {}),
      ...(conv?.prompt !== undefined ? { prompt: conv.prompt } : {}),
      // A continued conversation: its history, its context state, SessionStart `resume`.
      ...(history.length > 0 ? { history, sessionStart: 'resume' as const, ...(conv?.contextState ? { contextState: conv.contextState } : {}) } : {}),
      sessionId,
      cliRules: cliRules(args),
      // The runner's sandbox is just-bash: commands are judged on its own AST, whose parser loads
      // while the first request is out (shell-parser-on-demand.ts; awaited in the loop below).
      shellParser: shell.parser,
      prices,
      ...(args.maxBudgetUsd !== undefined ? { maxBudgetUsd: args.maxBudgetUsd } : {}),
      ...(args.fallbackModel ? { fallbackModel: args.fallbackModel } : {}),
      clock: realClock,
      ids: randomIds,
      signal,
      trusted: plan.trusted,
      // A headless run is the whole session, as `claude -p`: SessionEnd fires at its end.
      sessionEnd: 'other',
      // The flag is the CLI scope: it may choose bypassPermissions, unless a settings file disables it.
      ...(args.mode ? { mode: args.mode } : {}),
      skillFiles: await nodeSkillLoader()(),
      // A live model gets every agent tool; a scripted replay only what its scenario opted into.
      // …and keeps the rarely used ones deferred behind tool_search (schemas sent once loaded).
      ...(live ? { agentTools: ALL_AGENT_FEATURES, deferTools: true } : {}),
      ...(steers.length > 0 ? { steering: scriptedSteering(steers, 'file') } : {}),
      toolRunner: createNodeToolRunner(),
      // JS hooks run as in `golden`: a vm context in a worker thread (src/hooks-runtime/node-runner.ts).
      jsRunner: (await import('../hooks-runtime/node-runner.ts')).createNodeJsHookRunner(),
      // http hooks POST from the runner to any http(s) URL, as Claude Code's; `allowedEnvVars` read this process's env.
      httpHookClient: (await import('../hooks-runtime/http-hook-client.ts')).createNodeHttpHookClient(),
      httpHookEnv: process.env,
      // As Claude Code: ANTHROPIC_DEFAULT_*_MODEL retarget the aliases, CLAUDE_CODE_SUBAGENT_MODEL sets every subagent's.
      ...(live ? { modelAliases: modelAliasesFromEnv(process.env) } : {}),
      // A `.mcp.json` (the scenario's or the folder's): in-page servers run in worker threads, remote ones by URL,
      // stdio ones as processes started in the folder (as Claude Code starts them in its working directory).
      // The connector loads the MCP client on its first connection (node-on-demand.ts): a run with no server never reads it.
      mcp: { connector: (await import('../mcp/node-on-demand.ts')).createNodeMcpConnectorOnDemand({ cwd: plan.dir ? resolve(plan.dir.root) : process.cwd() }), ...(args.mcpConfigs.length ? { cliConfigs: await loadMcpConfigs(args.mcpConfigs) } : {}) },
    });
    for (const note of prepared.modeNotes) out.stderr(`${scenario.id}: ${note}\n`);
    disposeRun = prepared.dispose;
    // Preparing a big folder takes a while; a Ctrl-C meanwhile ends it here, before any model call.
    if (signal.aborted) throw new StoppedBeforeRun();
    const printer = new Printer(args.quiet ? 'json' : args.format, args.quiet ? { stdout: () => {}, stderr: out.stderr } : out, {
      verbose: args.verbose,
      sessionId,
      prices,
      uuid: randomUUID,
      init: { cwd: plan.dir ? resolve(plan.dir.root) : process.cwd(), permissionMode: prepared.input.permissions?.mode ?? 'default', apiKeySource: live ? 'ANTHROPIC_API_KEY' : 'none' },
    });
    for (const n of notes) printer.note(n);
    // Claude Code's print-mode flags that shape the run itself.
    const input = { ...prepared.input, system: systemPromptOf(prepared.input.system, args) };
    // With a team, its end comes before the lead's run.end: nobody left running, no copy left unmerged.
    const loop = runPrepared(prepared, input);
    let step = await loop.next();
    let events = 0;
    let sawRequest = false;
    let refusal: string | undefined;
    // A built-in command as the first prompt (`-p "/cost"`) leaves an empty conversation: nothing to check.
    let slashRun = false;
    // The session file is written as the run goes (session-files.ts): no copy of the run's events is kept here.
    if (plan.dir && conv && !args.noSessionPersistence && !conv.writer) {
      conv.writer = await SessionFileWriter.open(plan.dir.root, conv.id, conv.log, process.env.ANTHROPIC_API_KEY ? [process.env.ANTHROPIC_API_KEY] : [], { append: conv.appendable });
      conv.log = [];
    }
    const writer = plan.dir ? conv?.writer : undefined;
    let parserAfterSend: { stop(): void } | undefined;
    try {
      while (!step.done) {
        events++;
        // The shell parser loads during the first model call; nothing can be judged before its response.
        // (Started without waiting, once the request is out; a failed load throws at that wait.)
        if (!shell.loaded) {
          // Live: once the request's bytes are out (its compile must not delay them); scripted: nothing to send.
          if (step.value.type === 'model.request' && !sawRequest) {
            if (live) parserAfterSend = startAfterNextRequestSent(() => void shell.load().catch(() => {}));
            else void shell.load().catch(() => {});
          } else if (sawRequest) await shell.load();
        }
        if (step.value.type === 'model.request') sawRequest = true;
        if (step.value.type === 'transition' && step.value.reason === 'refusal') refusal = step.value.detail;
        if (step.value.type === 'slash.command' && step.value.agentId === 'main') slashRun = true;
        if (step.value.type === 'model.fallback') out.stderr(`${scenario.id}: ${step.value.from} ${step.value.error.kind === 'not_found' ? 'was not found' : 'stayed overloaded'}; switched to the fallback model ${step.value.to}\n`);
        printer.event(step.value);
        if (writer) {
          await writer.append(step.value);
          // What happened so far is on disk before each model call, as Claude Code's transcript is.
          if (step.value.type === 'model.request') await writer.flush();
        }
        step = await loop.next();
      }
    } finally {
      parserAfterSend?.stop();
    }
    let result = step.value;
    const problems = slashRun && result.messages.length === 0 ? [] : checkTranscript(result.messages);
    for (const p of problems) out.stderr(`${scenario.id}: transcript problem: ${p}\n`);
    if (problems.length > 0) result = { ...result, reason: 'model_error' };
    if (refusal) out.stderr(`${scenario.id}: ${refusal}\n`);
    if (plan.dir && conv) {
      // The session goes on disk after every run, as Claude Code's transcript does.
      if (writer) {
        await writer.append({ type: 'session.run_result', ts: Date.now(), reason: result.reason, turns: result.turns, usage: result.usage, messageCount: result.messages.length, contextState: result.contextState });
        await writer.flush();
      }
      conv.history = result.messages;
      conv.contextState = result.contextState;
    }
    // A stopped run leaves the folder as it was: its changes stay in the transcript only.
    if (plan.dir && args.writeBack && signal.aborted) out.stderr(`${scenario.id}: stopped with Ctrl-C: nothing written back to ${plan.dir.root}\n`);
    const wb = plan.dir && args.writeBack && !signal.aborted ? await writeBack(plan.dir, await sandboxFiles(sandbox)) : undefined;
    printer.finish(scenario.id, result, { notes, ...(wb ? { writeBack: wb } : {}) });
    if (args.quiet) {
      const mark = result.reason === 'completed' ? 'ok  ' : 'FAIL';
      const err = result.error ? ` — ${result.error.message}` : '';
      out.stdout(`${mark} ${scenario.id}: ${result.reason} after ${result.turns} turns, ${events} events${err}\n`);
    }
    return result;
  } finally {
    await disposeRun();
    await sandbox.dispose();
    cacheAfterSend.stop();
    saveCodeCache();
  }
}

/**
 * `--all --quiet`: every built-in lesson, every prompt in order (as the app runs it), passing when
 * its last run ends as the lesson says (`lesson.endsWith`, default completed) with a valid transcript.
 */
export async function runAllLessons(out: Out): Promise<number> {
  const { builtinDocs } = await library();
  const { runLessonHeadless } = await import('../run/run-lesson.ts');
  const { checkTranscript, FakeClock, SequentialIds, nodeSkillLoader, createNodeToolRunner } = await engine();
  const { createJustBashSandbox } = await import('../sandbox/justbash/index.ts');
  const skillFiles = await nodeSkillLoader()();
  let failed = 0;
  for (const doc of builtinDocs) {
    const sandbox = await createJustBashSandbox();
    try {
      const { log, results } = await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds(), skillFiles, toolRunner: createNodeToolRunner() });
      const last = results.at(-1)!;
      const want = doc.lesson?.endsWith ?? 'completed';
      const problems = results.flatMap((r) => checkTranscript(r.messages));
      const ok = last.reason === want && problems.length === 0;
      if (!ok) failed++;
      const err = last.error ? ` — ${last.error.message}` : '';
      out.stdout(`${ok ? 'ok  ' : 'FAIL'} ${doc.id}: ${results.length} prompt(s), ${last.reason} (expected ${want}) after ${last.turns} turns, ${log.length} events${err}\n`);
      for (const p of problems) out.stderr(`${doc.id}: transcript problem: ${p}\n`);
    } finally {
      await sandbox.dispose();
    }
  }
  out.stdout(`lessons: ${builtinDocs.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? EXIT.ok : EXIT.runFailed;
}
