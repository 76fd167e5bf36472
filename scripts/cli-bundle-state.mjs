/**
 * Where the headless runner's bundle lives and whether it is older than the sources — without
 * importing esbuild, so `bin/harness-playground.mjs` can ask before deciding to build, and the
 * test run (`test/helpers/build-cli-once.ts`) builds it only when a source changed.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = join(ROOT, 'dist-cli');
export const CLI_BUNDLE = join(CLI_DIR, 'harness.mjs');

function newestFile(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestFile(join(path, e)));
  return newest;
}

/** True when the bundle is missing, or `src/` or the build script changed after it was built. */
export function cliBundleStale() {
  if (!existsSync(CLI_BUNDLE)) return true;
  const built = statSync(CLI_BUNDLE).mtimeMs;
  const inputs = [join(ROOT, 'src'), join(ROOT, 'scripts', 'build-cli.mjs')].filter((p) => existsSync(p));
  return inputs.some((p) => newestFile(p) > built);
}
