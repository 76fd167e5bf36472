#!/usr/bin/env node
/**
 * `npx harness-playground …` from a clone: runs the bundled runner (`dist-cli/harness.mjs`),
 * building it first when it is missing or older than the sources (about a second, with the
 * esbuild that tsx brings). If the build cannot run, it falls back to the TypeScript sources
 * through tsx and says so (slower start-up, same behaviour).
 *
 * This file runs before every start, so it reads as little as it can: the staleness check stats
 * only the bundle's recorded inputs (`cli-bundle-state.mjs`), and what only a build or the
 * fallback needs (esbuild, child_process) is imported then.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI_BUNDLE as bundle, cliBundleStale } from '../scripts/cli-bundle-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (cliBundleStale()) {
  // A fresh clone (or edited sources) builds first: on a busy machine that takes a while, so say
  // so on stderr (stdout stays the runner's) instead of sitting silent.
  const t0 = Date.now();
  process.stderr.write('harness-playground: building the runner (dist-cli/harness.mjs) from src/ — once after a clone or an edit…\n');
  try {
    const { buildCli } = await import(pathToFileURL(join(root, 'scripts', 'build-cli.mjs')).href);
    await buildCli({ quiet: true });
    process.stderr.write(`harness-playground: built in ${((Date.now() - t0) / 1000).toFixed(1)} s.\n`);
  } catch (e) {
    process.stderr.write(
      `harness-playground: could not build dist-cli/harness.mjs (${e instanceof Error ? e.message : String(e)}); running the sources through tsx instead (slower to start).\n`,
    );
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'run-scenario.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: process.cwd() });
    process.exit(r.status ?? 1);
  }
}
await import(pathToFileURL(bundle).href);
