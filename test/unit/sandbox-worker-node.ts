/**
 * Spawns the sandbox worker (`src/sandbox/justbash-worker/node-entry.ts`) on a real
 * node:worker_threads thread and adapts it to the `WorkerLike` the page side of the worker
 * sandbox talks to.
 *
 * The entry is bundled once per test run (`buildWorkerBundle`, from the unit config's global setup)
 * with esbuild (the one tsx brings) and the runner's own plugin for just-bash (`justBashLazyHeaders`:
 * the thread starts without loading Node's fetch, as the runner's does): a worker then starts from one
 * plain ESM file instead of compiling just-bash's hundreds of modules through tsx (~0.5 s per worker).
 * Same sources, same behaviour; QuickJS stays external so its .wasm is found beside its module in
 * node_modules, which is why the bundle is written under `node_modules/.cache/` (bare imports
 * resolve from there).
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerLike } from '../../src/sandbox/justbash-worker/client.ts';
import { spawnNodeThread } from '../../src/sandbox/justbash-worker/node-thread.ts';
import { justBashLazyHeaders } from '../../scripts/build-cli.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'node_modules', '.cache', 'hp-sandbox-worker');
/** The bundled worker entry (`buildWorkerBundle` writes it). */
export const WORKER_BUNDLE = join(dir, 'node-entry.mjs');
const final = WORKER_BUNDLE;

/**
 * Bundles the worker entry from the current sources (the unit config's global setup, once per run,
 * before any test file starts). Written beside and renamed into place (atomic), so a second run
 * started meanwhile never reads a half-written bundle.
 */
export async function buildWorkerBundle(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `node-entry.${process.pid}.tmp.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: ['src/sandbox/justbash-worker/node-entry.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // Resolved from the repo's node_modules at run time (native, optional, or finds its .wasm beside itself).
    external: ['node-liblzma', '@mongodb-js/zstd', 'fsevents', '@jitl/quickjs-wasmfile-release-sync'],
    banner: { js: "import { createRequire as __hpCreateRequire } from 'node:module'; const require = __hpCreateRequire(import.meta.url);" },
    plugins: [justBashLazyHeaders],
  });
  renameSync(outfile, final);
}

/** The bundled worker entry (built by the global setup). */
export function workerBundle(): URL {
  if (!existsSync(final)) throw new Error(`${final} is missing: the unit config's global setup builds it (test/helpers/build-cli-once.ts); run the tests with vitest.config.ts`);
  return pathToFileURL(final);
}

export function spawnNodeWorker(): WorkerLike {
  return spawnNodeThread(workerBundle());
}
