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
 *
 * This file is the command line's top: `main` and the process entry. What to run is in
 * `plans.ts`, one run in `run-one.ts`, the lazy loaders in `engine.ts`.
 */
import { EXIT, helpText, parseCliArgs } from './args.ts';
import { exitCodeFor } from './exit-code.ts';
import type { Out } from './output.ts';
import type { Sandbox } from '../harness/ports.ts';
import { UsageError } from './usage-error.ts';
import { contextOverlay } from './context-flags.ts';
import { engines, library, runOptions } from './engine.ts';
import { conversation, loadScenario, loadSteers, plans, readStdin, type Conversation } from './plans.ts';
import { runAllLessons, runOne, startSandbox, StoppedBeforeRun } from './run-one.ts';

/** Runs the command line; resolves to the exit code. Exported for tests. */
export async function main(argv: readonly string[], out: Out): Promise<number> {
  // `golden <scenario>`: re-run its golden cases (see golden.ts).
  if (argv[0] === 'golden') {
    const [{ goldenMain }] = await Promise.all([import('./golden.ts'), engines()]);
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
    // Scenarios, settings and rules are validated with yaml and RE2: loaded before any of them is read.
    await engines();
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
