/**
 * Spawns the sandbox worker (`src/sandbox/justbash-worker/node-entry.ts`) on a real
 * node:worker_threads thread and adapts it to the `WorkerLike` the page side of the worker
 * sandbox talks to.
 *
 * The entry is bundled once per test process with esbuild (the one tsx brings, as the runner's
 * build does) into a temporary folder: a worker then starts from one plain ESM file instead of
 * compiling just-bash's hundreds of modules through tsx (~0.5 s per worker). Same sources, same
 * behaviour; QuickJS stays external so its .wasm is found beside its module in node_modules, which
 * is why the bundle is written under `node_modules/.cache/` (bare imports resolve from there).
 */
import { buildSync } from 'esbuild';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerLike } from '../../src/sandbox/justbash-worker/client.ts';
import { spawnNodeThread } from '../../src/sandbox/justbash-worker/node-thread.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
let bundled: URL | undefined;

export function workerBundle(): URL {
  if (bundled) return bundled;
  // One file, rebuilt by each test process from the current sources and renamed into place
  // (atomic), so parallel processes never read a half-written bundle and nothing piles up.
  const dir = join(root, 'node_modules', '.cache', 'hp-sandbox-worker');
  mkdirSync(dir, { recursive: true });
  const final = join(dir, 'node-entry.mjs');
  const outfile = join(dir, `node-entry.${process.pid}.tmp.mjs`);
  buildSync({
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
  });
  renameSync(outfile, final);
  bundled = pathToFileURL(final);
  return bundled;
}

export function spawnNodeWorker(): WorkerLike {
  return spawnNodeThread(workerBundle());
}
