/**
 * The runner's launcher: `dist-cli/harness.mjs`, what `bin/harness-playground.mjs` imports (built
 * on its own by `scripts/build-cli.mjs`, Node's built-ins only, so it is read in a few ms). In order:
 *
 * 1. It starts the sandbox thread (`early-thread.ts`), unless the command line asks for help,
 *    golden cases or every lesson (`runnerTakesEarlyThread`): its boot then overlaps everything below.
 * 2. It runs the runner from V8's code cache (`code-cache.ts`): `runner.cjs` compiled with the
 *    cache of an earlier start. Against the ES-module build before this (`test/bench/cli-startup.ts
 *    --against`, alternated; two sessions of 15 and 31 start-ups): to the first request 482 → 404 and
 *    518 → 428 ms (2.9× → 2.5× a bare `fetch` in the same runs), main-thread CPU 397 → 328 and
 *    419 → 343 ms, a one-turn run's CPU 890 → 770 and 960 → 810 ms. Its cost: peak RSS on the
 *    208-turn session +4–6 MB (133 → 139 and 137 → 141 MB, the same build either way), the script's
 *    source and the code the cache brings.
 * 3. Otherwise — no cache and none to be written (a folder it cannot write into, as an installed,
 *    read-only bundle; `--help` or `golden`, which write none), or `HARNESS_PLAYGROUND_CODE_CACHE=off`
 *    — it imports the ES-module runner (`runner.mjs` and its lazy chunks): a script without a cache
 *    compiles more at start than the split modules do.
 *
 * Both runners are the same sources (`cli-main.ts`) built twice: what a run does cannot depend on
 * which one started. `test/unit/cli-code-cache.test.ts` runs both, and a torn and a foreign cache.
 */
import { accessSync, constants as fsConstants, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
import { CODE_CACHE_DIR, CODE_CACHE_ENV, codeCacheFileName, installCodeCacheHook } from './code-cache.ts';
import { runnerTakesEarlyThread, startEarlySandboxThread } from './early-thread.ts';
import { SANDBOX_YOUNG_GENERATION_MB } from './heap.ts';

/** Set by the build: a hash of `runner.cjs` as written (V8 checks only a cached script's length). */
declare const __RUNNER_BUILD_ID__: string;
/** Set by the build: whether `runner.cjs` is ASCII only (read as Latin-1 then: a one-byte string, no UTF-8 decoding of ~5 MB). */
declare const __RUNNER_ASCII__: boolean;

/** The parameters the build wraps `runner.cjs` in (a CommonJS module's, and its `import.meta.url`). */
type RunnerWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string, importMetaUrl: string) => void;

const mode = process.env[CODE_CACHE_ENV];
const say = mode === 'verbose' ? (line: string) => process.stderr.write(`harness-playground: code cache: ${line}\n`) : () => {};

const args = process.argv.slice(2);
/** `--help` and `golden` take no sandbox of this kind and write no cache (`saveCodeCache` is a run's). */
const noRun = args.includes('--help') || args.includes('-h') || args[0] === 'golden';
if (runnerTakesEarlyThread(args)) startEarlySandboxThread(new URL('./sandbox-worker.mjs', import.meta.url), SANDBOX_YOUNG_GENERATION_MB);

const bundleDir = fileURLToPath(new URL('.', import.meta.url));
const cacheDir = join(bundleDir, CODE_CACHE_DIR);
const cacheFile = join(cacheDir, codeCacheFileName(__RUNNER_BUILD_ID__, process.versions.v8, process.execArgv, process.env.NODE_OPTIONS));

/** Beside this file; a variable, so the build leaves the import to Node. */
const esmRunner = './runner.mjs';

if (mode === 'off') await import(esmRunner); else {
  const cached = readCache();
  if (!cached && noRun) {
    // The script without a cache compiles more than the ES modules do, and this start would not write one.
    say('none yet, and this command writes none: the ES-module runner');
    await import(esmRunner);
  } else if (!cached && !canWrite(bundleDir)) {
    say(`none, and ${bundleDir} is not writable: the ES-module runner`);
    await import(esmRunner);
  } else runScript(cached);
}

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

function canWrite(dir: string): boolean {
  try {
    accessSync(dir, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function runScript(cached: Buffer | undefined): void {
  const file = join(bundleDir, 'runner.cjs');
  const script = new Script(readFileSync(file, __RUNNER_ASCII__ ? 'latin1' : 'utf8'), {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
    // The runner's own lazy pieces are inside the script; what it imports from outside
    // (node_modules' optional packages) goes through Node's loader, as from a module.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const used = cached !== undefined && !script.cachedDataRejected;
  say(used ? `used ${cacheFile}` : cached ? 'rejected by V8 (another build, flags or a torn file): writing a new one' : 'none yet: writing one');
  installCodeCacheHook({
    pending: !used,
    write() {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(tmp, script.createCachedData());
        // Renamed into place: a start that reads it meanwhile sees the old file or the whole new one.
        renameSync(tmp, cacheFile);
        say(`written ${cacheFile}`);
      } catch (e) {
        say(`not written (${e instanceof Error ? e.message : String(e)})`);
      }
    },
  });
  const module = { exports: {} };
  const run = script.runInThisContext() as RunnerWrapper;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
}
