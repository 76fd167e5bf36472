/**
 * Headless runner (`harness-playground`, `npm run scenario --`): runs a scenario, or a prompt on a
 * folder from disk, in Node on the just-bash sandbox. `--help` (in `args.ts`) lists the options,
 * output formats and exit codes.
 *
 * A scenario file or a folder is untrusted unless `--trust` is given: its hooks, allow rules and
 * permissive modes are ignored (deny and ask rules still apply), and what needs approval is denied.
 *
 * Start-up is kept short: the Anthropic SDK is imported only for a live run and the scenario
 * library only for `--all` / `--help` (a named built-in is loaded and validated alone); the bundled build
 * (`dist-cli/harness.mjs`, see `build-cli.mjs`) then starts without compiling anything.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Message, RunResult } from '../harness/index.ts';
import type { ContextSettingsInput, ContextState } from '../harness/context/index.ts';
import type { SessionLogEvent } from '../harness/session/index.ts';
import type { PriceTable } from '../harness/cost/index.ts';
import type { ModelClient, Sandbox } from '../harness/ports.ts';
import type { Scenario } from '../scenarios/schema.ts';
import type { ScriptedSteer } from '../harness/agents/index.ts';
import { EXIT, helpText, parseCliArgs, type CliArgs } from './args.ts';
import { exitCodeFor } from './exit-code.ts';
import { loadDir, sandboxFiles, writeBack, type LoadedDir } from './dir-workspace.ts';
import { copiedLine, copyGitIntoSandbox, readDirGit, type DirGit } from './dir-git.ts';
import type { Out } from './output.ts';
import { createCliSandbox } from './cli-sandbox.ts';
import { UsageError } from './usage-error.ts';
import { contextOverlay, mergeContextSettings } from './context-flags.ts';
import { latestSessionId, loadSession, SessionFileWriter } from './session-files.ts';

const DEFAULT_LIVE_MODEL = 'claude-sonnet-5-5';

/** Ctrl-C came before the run's loop started: nothing ran, nothing is written back. */
class StoppedBeforeRun extends Error {}

const library = () => import('../scenarios/library/index.ts');
/** The print-mode flags' readers (rules, prices, stdin): they pull the rule parser and the price table. */
const runOptions = () => import('./run-options.ts');
/** The harness, the sandbox and the scenario format: loaded once the command line is known to be good. */
const engine = async () => {
  // No just-bash here: a run's sandbox is on its own thread (cli-sandbox.ts), which loads it there.
  const [harness, prepare, migrate, schema, agents, skills, agentFeatures, toolRunner, output] = await Promise.all([
    import('../harness/index.ts'),
    import('../run/prepare.ts'),
    import('../scenarios/migrate.ts'),
    import('../scenarios/schema.ts'),
    import('../harness/agents/index.ts').then((m) => ({ scriptedSteering: m.scriptedSteering, modelAliasesFromEnv: m.modelAliasesFromEnv })),
    import('../skills-bundle/node.ts'),
    import('../run/prepare-agents.ts'),
    import('../user-code/tools/node-tool-runner.ts'),
    import('./output.ts'),
  ]);
  return { ...harness, ...prepare, ...migrate, ...schema, ...agents, ...skills, ...agentFeatures, ...toolRunner, ...output };
};

/** A built-in id, or a scenario file of any version (v1 lessons run at their first prompt). */
async function loadScenario(target: string): Promise<{ scenario: Scenario; builtin: boolean }> {
  if (!target.endsWith('.json')) {
    // Only the named built-in is read and validated; the whole library only to list the ids.
    const [{ loadBuiltinDoc }, { toRunnableScenario }] = await Promise.all([import('../scenarios/library/by-id.ts'), import('../scenarios/migrate.ts')]);
    const doc = await loadBuiltinDoc(target);
    if (doc) return { scenario: toRunnableScenario(doc, 0), builtin: true };
    const { builtinScenarios } = await library();
    throw new UsageError(`no built-in scenario "${target}" and it is not a .json path (built-ins: ${builtinScenarios.map((s) => s.id).join(', ')})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(target, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { migrateScenario, toRunnableScenario } = await engine();
  const migrated = migrateScenario(json);
  if (!migrated.ok) throw new UsageError(`${target} is not a valid scenario:\n  ${migrated.errors.join('\n  ')}`);
  return { scenario: toRunnableScenario(migrated.scenario, 0), builtin: false };
}

/** `--dir`: the folder's files and settings as a scenario on a live model. */
async function dirScenario(dir: LoadedDir, args: CliArgs, git: DirGit): Promise<Scenario> {
  const { parseScenario } = await engine();
  const id = basename(resolve(dir.root)).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'folder';
  const parsed = parseScenario({
    id: /^[a-z0-9]/.test(id) ? id : `dir-${id}`,
    title: `Folder ${dir.root}`,
    // With --input-format stream-json the prompts come from stdin, one run each.
    prompt: args.prompt ?? 'the prompt comes from stdin',
    files: dir.files,
    model: { kind: 'anthropic', model: args.model ?? DEFAULT_LIVE_MODEL },
    // A .git too large to carry: the files start as a repository with one commit (the page's settings.git).
    settings: { maxTurns: args.maxTurns ?? 50, ...(git.kind === 'seed' ? { git: { init: true, message: `Snapshot of ${basename(resolve(dir.root))} (harness-playground --dir)` } } : {}) },
  });
  if (!parsed.ok) throw new UsageError(`cannot use ${dir.root} as a workspace:\n  ${parsed.errors.join('\n  ')}`);
  return parsed.scenario;
}

/** `--steer-file`: one queued message per line, delivered at the next safe points. */
async function loadSteers(path: string): Promise<ScriptedSteer[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the steer file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { parseSteerFile } = await import('../harness/agents/index.ts');
  const { steers, errors } = parseSteerFile(text);
  if (errors.length > 0) throw new UsageError(`${path} has lines that cannot be queued:\n  ${errors.join('\n  ')}`);
  return steers;
}

async function liveModel(): Promise<ModelClient> {
  const { anthropicClientFromEnv } = await import('../model/anthropic/client.ts');
  const model = anthropicClientFromEnv(process.env);
  if (!model) throw new UsageError('a live run needs ANTHROPIC_API_KEY in the environment (and ANTHROPIC_BASE_URL for another endpoint)');
  return model;
}

/** `git`: what `--dir` does about the folder's history (dir-git.ts). */
type RunPlan = { scenario: Scenario; trusted: boolean; dir?: LoadedDir; git?: DirGit };

/** An untrusted document: what stays off, from every carrier (its settings, `.claude/` files, `.mcp.json`, tools), as the page's trust dialog lists it. */
async function untrustedNote(scenario: Scenario, out: Out): Promise<void> {
  const [{ scenarioCarriers }, { carriersAct, carrierLines }] = await Promise.all([import('../scenarios/actionable.ts'), import('../harness/trust/index.ts')]);
  const carriers = scenarioCarriers(scenario);
  if (!carriersAct(carriers)) return;
  out.stderr(`${scenario.id}: untrusted (pass --trust to turn these on):\n${carrierLines(carriers).map((l) => `  ${l}\n`).join('')}`);
}

/** A folder run's conversation: its session id and what earlier runs left (`--resume`, `--continue`, stdin messages). */
/** `log`: what earlier runs left, until `writer` (the session file, written as events happen) takes it over. */
type Conversation = { id: string; prompt?: string; history: Message[]; contextState: ContextState | null; log: SessionLogEvent[]; appendable: boolean; writer?: SessionFileWriter };

/** `started`: a sandbox whose thread `main` started before reading the folder (the first run's); otherwise one starts here. */
async function runOne(plan: RunPlan, args: CliArgs, out: Out, signal: AbortSignal, steers: ScriptedSteer[], prices: PriceTable, context: ContextSettingsInput, conv?: Conversation, started?: Promise<Sandbox>): Promise<RunResult> {
  const { scenario } = plan;
  const live = args.live || scenario.model.kind === 'anthropic';
  // The sandbox's thread starts (and loads just-bash there) while this one loads the engine and the SDK.
  const sandboxReady = started ?? startSandbox(out);
  let loaded;
  try {
    loaded = await Promise.all([live ? liveModel() : undefined, engine(), runOptions()]);
  } catch (e) {
    // No key, say: the thread that started meanwhile must not keep the process alive.
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
      // The runner's sandbox is just-bash: commands are judged on its own AST (loaded with the run,
      // not before the first request's start-up path).
      shellParser: (await import('../sandbox/justbash/shell-parser.ts')).justBashShellParser,
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
    let refusal: string | undefined;
    // A built-in command as the first prompt (`-p "/cost"`) leaves an empty conversation: nothing to check.
    let slashRun = false;
    // The session file is written as the run goes (session-files.ts): no copy of the run's events is kept here.
    if (plan.dir && conv && !args.noSessionPersistence && !conv.writer) {
      conv.writer = await SessionFileWriter.open(plan.dir.root, conv.id, conv.log, process.env.ANTHROPIC_API_KEY ? [process.env.ANTHROPIC_API_KEY] : [], { append: conv.appendable });
      conv.log = [];
    }
    const writer = plan.dir ? conv?.writer : undefined;
    while (!step.done) {
      events++;
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
  }
}

/**
 * `--all --quiet`: every built-in lesson, every prompt in order (as the app runs it), passing when
 * its last run ends as the lesson says (`lesson.endsWith`, default completed) with a valid transcript.
 */
async function runAllLessons(out: Out): Promise<number> {
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

async function plans(args: CliArgs): Promise<RunPlan[]> {
  if (args.dir) {
    const loaded = await loadDir(args.dir);
    if (!loaded.ok) throw new UsageError(loaded.problem);
    const git = await readDirGit(args.dir);
    return [{ scenario: await dirScenario(loaded.dir, args, git), trusted: args.trust, dir: loaded.dir, git }];
  }
  if (args.all) return (await library()).builtinScenarios.map((scenario) => ({ scenario, trusted: true }));
  const out: RunPlan[] = [];
  for (const t of args.targets) {
    const { scenario, builtin } = await loadScenario(t);
    // Built-ins ship with the app; a file's hooks, allow rules and permissive modes apply only with --trust.
    out.push({ scenario, trusted: builtin || args.trust });
  }
  return out;
}

/** A folder's conversation: a new session, or the one `--resume ID` / `--continue` names. */
async function conversation(root: string, args: CliArgs): Promise<Conversation> {
  const id = args.resume ?? (args.continue ? await latestSessionId(root) : null);
  if (args.continue && !id) throw new UsageError(`--continue: no saved session for ${resolve(root)} yet (run once with -p first)`);
  if (!id) return { id: randomUUID(), history: [], contextState: null, log: [], appendable: false };
  const loaded = await loadSession(root, id);
  if (!loaded.ok) throw new UsageError(loaded.problem);
  return { id, history: loaded.session.messages, contextState: loaded.session.contextState, log: loaded.session.log, appendable: loaded.session.appendable };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const startSandbox = (out: Out) => createCliSandbox((line) => out.stderr(`harness-playground: ${line}\n`));

/** Runs the command line; resolves to the exit code. Exported for tests. */
export async function main(argv: readonly string[], out: Out): Promise<number> {
  // `golden <scenario>`: re-run its golden cases (see golden.ts).
  if (argv[0] === 'golden') {
    const { goldenMain } = await import('./golden.ts');
    return goldenMain(argv.slice(1), out, loadScenario).catch((e: unknown) => {
      if (!(e instanceof UsageError)) throw e;
      out.stderr(`harness-playground: ${e.message}\n`);
      return EXIT.usage;
    });
  }
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    out.stderr(`harness-playground: ${parsed.problem}\n(run with --help for the options)\n`);
    return EXIT.usage;
  }
  const args = parsed.args;
  if (args.help) {
    out.stdout(helpText((await library()).builtinScenarios.map((s) => s.id)));
    return EXIT.ok;
  }
  // Every lesson, every prompt: what `npm run test:scenarios` checks.
  if (args.all && args.quiet && !args.live && !args.dir) return runAllLessons(out);
  // Every Ctrl-C from here on stops the run (`on`, not `once`: a second one must not kill the
  // process mid-write); one before the loop starts means nothing runs at all.
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  let conv: Conversation | undefined;
  // The first run's sandbox thread starts now: booting a Node thread and loading just-bash there
  // (the largest piece of start-up) overlaps reading the folder and loading the engine on this
  // thread, instead of following them. Disposed in `finally` if no run took it (a usage error, a Ctrl-C).
  let sandboxStarted: Promise<Sandbox> | undefined = startSandbox(out);
  process.on('SIGINT', onSigint);
  const stoppedBeforeRun = () => {
    out.stderr('harness-playground: stopped with Ctrl-C before the run started: nothing ran, nothing written back\n');
    return EXIT.interrupted;
  };
  try {
    if (args.dir && args.verbose) out.stderr(`· reading the folder ${args.dir}\n`);
    const list = await plans(args);
    const steers = args.steerFile ? await loadSteers(args.steerFile) : [];
    const { cliRules, loadPriceTable, parseStreamJsonInput } = await runOptions();
    const prices = await loadPriceTable(args.priceTable);
    cliRules(args); // a bad rule is a usage error before anything runs
    const context = await contextOverlay(args.context); // so is a bad context setting
    conv = list[0]?.dir ? await conversation(list[0].dir.root, args) : undefined;
    // Each stdin message is one run of the same conversation; otherwise one run per plan.
    const prompts = args.inputFormat === 'stream-json' ? parseStreamJsonInput(await readStdin()) : [undefined];
    const reasons: string[] = [];
    let aborted = false;
    for (const plan of list) {
      for (const prompt of prompts) {
        if (controller.signal.aborted) return reasons.length === 0 ? stoppedBeforeRun() : EXIT.interrupted;
        // One signal per run: listeners a run leaves on it (tools, hooks, sleeps) go with the run.
        const run = new AbortController();
        const relay = () => run.abort();
        controller.signal.addEventListener('abort', relay, { once: true });
        if (conv) conv.prompt = prompt ?? args.prompt;
        const started = sandboxStarted;
        sandboxStarted = undefined;
        const r = await runOne(plan, args, out, run.signal, steers, prices, context, conv, started).finally(() => controller.signal.removeEventListener('abort', relay));
        if (r.reason === 'aborted' || controller.signal.aborted) aborted = true;
        reasons.push(r.reason);
        if (aborted) break;
      }
      if (aborted) break;
    }
    const failed = reasons.filter((r) => r !== 'completed').length;
    if (args.quiet) out.stdout(`scenarios: ${list.length - failed} passed, ${failed} failed\n`);
    return aborted ? EXIT.interrupted : exitCodeFor(reasons);
  } catch (e) {
    if (e instanceof StoppedBeforeRun) return stoppedBeforeRun();
    if (e instanceof UsageError) {
      // A Ctrl-C can cut start-up short in a way that looks like bad input: it is still a stop.
      if (controller.signal.aborted) return stoppedBeforeRun();
      out.stderr(`harness-playground: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    await (await sandboxStarted?.catch(() => null))?.dispose();
    await conv?.writer?.close();
  }
}

/** Runs `main` on this process's arguments and sets the exit code. */
export function runFromProcess(): void {
  void main(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) }).then((code) => {
    process.exitCode = code;
  });
}

// `tsx src/cli/run-scenario.ts …` (npm run scenario); the bundle enters through `cli-main.ts`.
if (process.argv[1] && /run-scenario\.ts$/.test(process.argv[1])) runFromProcess();
