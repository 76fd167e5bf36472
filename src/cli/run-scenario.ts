/**
 * Headless runner: `npm run scenario -- <id | path.json> [--live] [--model ID]` runs one scenario
 * in Node on the just-bash sandbox and prints every TraceEvent as a JSON line. `--all` runs every
 * built-in scenario; `--quiet` prints one summary line per scenario instead of the events.
 *
 * A scenario file is untrusted unless `--trust` is given: its hooks, allow rules and permissive
 * modes are ignored (deny and ask rules still apply), and what needs approval is denied.
 *
 * The scripted model is used unless the scenario names a live model or `--live` is given; a live
 * run reads `ANTHROPIC_API_KEY` (and `ANTHROPIC_BASE_URL`) from the environment.
 * Exit code: 0 when every run completed, 1 when any ended otherwise, 2 for a usage error.
 */
import { readFile } from 'node:fs/promises';
import { agentLoop, FakeClock, realClock, randomIds, SequentialIds, type RunResult, type TraceEvent } from '../harness/index.ts';
import { checkTranscript } from '../harness/loop/check-transcript.ts';
import { anthropicClientFromEnv } from '../model/anthropic/client.ts';
import { createJustBashSandbox } from '../sandbox/justbash/index.ts';
import { builtinDocs, builtinScenarios, findBuiltinScenario } from '../scenarios/library/index.ts';
import { runLessonHeadless } from '../scenarios/run-lesson.ts';
import { prepareRun } from '../scenarios/prepare.ts';
import { parseScenario, type Scenario } from '../scenarios/schema.ts';

type Args = { targets: string[]; all: boolean; quiet: boolean; live: boolean; trust: boolean; model?: string };

function parseArgs(argv: string[]): Args {
  const args: Args = { targets: [], all: false, quiet: false, live: false, trust: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--all') args.all = true;
    else if (a === '--quiet') args.quiet = true;
    else if (a === '--live') args.live = true;
    else if (a === '--trust') args.trust = true;
    else if (a === '--model') args.model = argv[++i];
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else args.targets.push(a);
  }
  if (!args.all && args.targets.length === 0) usage('name a scenario or pass --all');
  return args;
}

function usage(problem: string): never {
  const ids = builtinScenarios.map((s) => s.id).join(', ');
  process.stderr.write(
    `run-scenario: ${problem}\nusage: npm run scenario -- <id | path.json> [--live] [--model ID] [--trust] [--quiet]\n       npm run scenario -- --all [--quiet]\nbuilt-in scenarios: ${ids}\n`,
  );
  process.exit(2);
}

async function loadScenario(target: string): Promise<Scenario> {
  const builtin = findBuiltinScenario(target);
  if (builtin) return builtin;
  if (!target.endsWith('.json')) usage(`no built-in scenario "${target}" and it is not a .json path`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(target, 'utf8'));
  } catch (e) {
    usage(`cannot read ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = parseScenario(json);
  if (!parsed.ok) usage(`${target} is not a valid scenario:\n  ${parsed.errors.join('\n  ')}`);
  return parsed.scenario;
}

async function runOne(scenario: Scenario, args: Args): Promise<RunResult> {
  const sandbox = await createJustBashSandbox();
  const live = args.live || scenario.model.kind === 'anthropic';
  const model = live ? anthropicClientFromEnv(process.env) : undefined;
  if (live && !model) usage('a live run needs ANTHROPIC_API_KEY in the environment');
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const modelId = args.model ?? (scenario.model.kind === 'anthropic' ? scenario.model.model : undefined);
    const { input, deps } = await prepareRun({
      scenario,
      sandbox,
      ...(model ? { model } : {}),
      ...(live ? { modelId: modelId ?? 'claude-sonnet-5-5' } : {}),
      clock: realClock,
      ids: randomIds,
      signal: controller.signal,
      // Built-ins ship with the app; a scenario file's hooks, allow rules and permissive modes
      // apply only with --trust (deny and ask rules always do).
      trusted: args.trust || findBuiltinScenario(scenario.id) === scenario,
    });
    const loop = agentLoop(input, deps);
    let step = await loop.next();
    let events = 0;
    while (!step.done) {
      events++;
      if (!args.quiet) process.stdout.write(JSON.stringify(step.value satisfies TraceEvent) + '\n');
      step = await loop.next();
    }
    const result = step.value;
    const problems = checkTranscript(result.messages);
    if (args.quiet) {
      const mark = result.reason === 'completed' && problems.length === 0 ? 'ok  ' : 'FAIL';
      const err = result.error ? ` — ${result.error.message}` : '';
      process.stdout.write(`${mark} ${scenario.id}: ${result.reason} after ${result.turns} turns, ${events} events${err}\n`);
    }
    for (const p of problems) process.stderr.write(`${scenario.id}: transcript problem: ${p}\n`);
    return problems.length === 0 ? result : { ...result, reason: 'model_error' };
  } finally {
    process.off('SIGINT', onSigint);
    await sandbox.dispose();
  }
}

/**
 * `--all --quiet`: every built-in lesson, every prompt in order (as the app runs it), passing when
 * its last run ends as the lesson says (`lesson.endsWith`, default completed) with a valid transcript.
 */
async function runAllLessons(): Promise<void> {
  let failed = 0;
  for (const doc of builtinDocs) {
    const sandbox = await createJustBashSandbox();
    try {
      const { log, results } = await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
      const last = results.at(-1)!;
      const want = doc.lesson?.endsWith ?? 'completed';
      const problems = results.flatMap((r) => checkTranscript(r.messages));
      const ok = last.reason === want && problems.length === 0;
      if (!ok) failed++;
      const err = last.error ? ` — ${last.error.message}` : '';
      process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${doc.id}: ${results.length} prompt(s), ${last.reason} (expected ${want}) after ${last.turns} turns, ${log.length} events${err}\n`);
      for (const p of problems) process.stderr.write(`${doc.id}: transcript problem: ${p}\n`);
    } finally {
      await sandbox.dispose();
    }
  }
  process.stdout.write(`lessons: ${builtinDocs.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.all && args.quiet && !args.live) return runAllLessons();
  const scenarios = args.all ? builtinScenarios : await Promise.all(args.targets.map(loadScenario));
  let failed = 0;
  for (const scenario of scenarios) {
    const result = await runOne(scenario, args);
    if (result.reason !== 'completed') failed++;
  }
  if (args.quiet) process.stdout.write(`scenarios: ${scenarios.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

void main();
