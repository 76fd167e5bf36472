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
 * `--permission-mode MODE` picks the mode as Claude Code's flag does (it may choose bypassPermissions,
 * unless a settings scope says `disableBypassPermissionsMode: "disable"`; the reason goes to stderr).
 * Exit code: 0 when every run completed; 3 when the only problem was a refusal (the model declined;
 * the API's explanation goes to stderr); 1 when any run ended otherwise; 2 for a usage error.
 */
import { readFile } from 'node:fs/promises';
import { agentLoop, realClock, randomIds, type RunResult, type TraceEvent } from '../harness/index.ts';
import { checkTranscript } from '../harness/loop/check-transcript.ts';
import { exitCodeFor } from './exit-code.ts';
import { PERMISSION_MODES, type PermissionMode } from '../harness/permissions/types.ts';
import { anthropicClientFromEnv } from '../model/anthropic/client.ts';
import { createJustBashSandbox } from '../sandbox/justbash/index.ts';
import { builtinScenarios, findBuiltinScenario } from '../scenarios/library/index.ts';
import { prepareRun } from '../scenarios/prepare.ts';
import { parseScenario, type Scenario } from '../scenarios/schema.ts';

type Args = { targets: string[]; all: boolean; quiet: boolean; live: boolean; trust: boolean; model?: string; mode?: PermissionMode };

function parseArgs(argv: string[]): Args {
  const args: Args = { targets: [], all: false, quiet: false, live: false, trust: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--all') args.all = true;
    else if (a === '--quiet') args.quiet = true;
    else if (a === '--live') args.live = true;
    else if (a === '--trust') args.trust = true;
    else if (a === '--model') args.model = argv[++i];
    else if (a === '--permission-mode') {
      const m = argv[++i];
      if (!(PERMISSION_MODES as readonly string[]).includes(m ?? '')) usage(`--permission-mode takes one of ${PERMISSION_MODES.join(', ')}`);
      args.mode = m as PermissionMode;
    }
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else args.targets.push(a);
  }
  if (!args.all && args.targets.length === 0) usage('name a scenario or pass --all');
  return args;
}

function usage(problem: string): never {
  const ids = builtinScenarios.map((s) => s.id).join(', ');
  process.stderr.write(
    `run-scenario: ${problem}\nusage: npm run scenario -- <id | path.json> [--live] [--model ID] [--trust] [--permission-mode MODE] [--quiet]\n       npm run scenario -- --all [--quiet]\nbuilt-in scenarios: ${ids}\n`,
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
    const { input, deps, modeNotes } = await prepareRun({
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
      // The flag is the CLI scope: it may choose bypassPermissions, unless a settings file disables it.
      ...(args.mode ? { mode: args.mode } : {}),
    });
    for (const note of modeNotes) process.stderr.write(`${scenario.id}: ${note}\n`);
    const loop = agentLoop(input, deps);
    let step = await loop.next();
    let events = 0;
    let refusal: string | undefined;
    while (!step.done) {
      events++;
      if (step.value.type === 'transition' && step.value.reason === 'refusal') refusal = step.value.detail;
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
    if (refusal) process.stderr.write(`${scenario.id}: ${refusal}\n`);
    return problems.length === 0 ? result : { ...result, reason: 'model_error' };
  } finally {
    process.off('SIGINT', onSigint);
    await sandbox.dispose();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const scenarios = args.all ? builtinScenarios : await Promise.all(args.targets.map(loadScenario));
  const reasons: string[] = [];
  for (const scenario of scenarios) reasons.push((await runOne(scenario, args)).reason);
  const failed = reasons.filter((r) => r !== 'completed').length;
  if (args.quiet) process.stdout.write(`scenarios: ${scenarios.length - failed} passed, ${failed} failed\n`);
  process.exitCode = exitCodeFor(reasons);
}

void main();
