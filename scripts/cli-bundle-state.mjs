/**
 * Where the headless runner's bundle lives and whether it is older than the sources — without
 * importing esbuild, so `bin/harness-playground.mjs` can ask before deciding to build, and the
 * test run (`test/helpers/build-cli-once.ts`) builds it only when a source changed.
 *
 * The check is on every start of the bin, so it must be cheap and never say "fresh" for a stale
 * bundle. The build writes `dist-cli/inputs.json`: each source file esbuild read (from its
 * metafile) and each folder holding one, with the mtime and size seen right after the build. The
 * check stats exactly those (~650 stats, a few ms; walking all of `src/` took 20–135 ms):
 * - an edited input changes its mtime or size (any change: an older mtime from `cp -p` or a
 *   checkout counts too, not only a newer one);
 * - a deleted or renamed input is missing;
 * - a new file in an input's folder changes that folder's mtime (it might be picked up by an
 *   import an edit adds later; rebuilding once is cheaper than reasoning about resolution);
 * - a file written while the build ran (mtime at or after its start) is recorded as unknown, so
 *   the next check rebuilds.
 * Without `src/` (an installed package: the bundle is what ships) there is nothing to compare.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = join(ROOT, 'dist-cli');
export const CLI_BUNDLE = join(CLI_DIR, 'harness.mjs');
/** The build's inputs and their stats (written by `build-cli.mjs`). */
export const INPUTS_FILE = 'inputs.json';
/** What the bundle depends on besides the files esbuild read. */
const BUILD_SCRIPTS = ['scripts/build-cli.mjs', 'scripts/cli-bundle-state.mjs'];

/** `[mtimeMs, size]`, or null when the path is gone. */
function stamp(path) {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? [s.mtimeMs, s.size] : null;
}

/**
 * After a build (`started`: `Date.now()` before esbuild ran): the manifest of its inputs.
 * `metafileInputs` are esbuild's keys (relative to `absWorkingDir`); packages in node_modules are
 * left out, as before (a dependency update is rebuilt by `npm run build`).
 */
export function writeInputsManifest(outdir, metafileInputs, started, root = ROOT) {
  const files = new Set(BUILD_SCRIPTS.map((f) => join(root, f)));
  for (const input of metafileInputs) {
    if (input.includes('node_modules/')) continue; // packages
    const abs = resolve(root, input);
    // Not a file (esbuild's virtual modules): nothing to stat. One deleted during the build shows in its folder's mtime.
    if (statSync(abs, { throwIfNoEntry: false })?.isFile()) files.add(abs);
  }
  const dirs = new Set([...files].map((f) => dirname(f)));
  // A clock tick's slack: file times are coarser than Date.now().
  const during = (s) => s !== null && s[0] >= started - 50;
  const entry = (p) => {
    const s = stamp(p);
    return [relative(root, p), during(s) ? null : s];
  };
  const manifest = { files: [...files].sort().map(entry), dirs: [...dirs].sort().map(entry) };
  writeFileSync(join(outdir, INPUTS_FILE), JSON.stringify(manifest));
}

/** True when the bundle is missing, or a source or the build script changed after it was built. `root`: another checkout (tests). */
export function cliBundleStale(root = ROOT) {
  const dir = join(root, 'dist-cli');
  if (!existsSync(join(dir, 'harness.mjs'))) return true;
  // An installed package ships the bundle without the sources: nothing to rebuild from.
  if (!existsSync(join(root, 'src'))) return false;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, INPUTS_FILE), 'utf8'));
  } catch {
    return true; // built by an older script, or half-written
  }
  if (!Array.isArray(manifest?.files) || manifest.files.length === 0 || !Array.isArray(manifest.dirs)) return true;
  for (const [path, was] of [...manifest.files, ...manifest.dirs]) {
    const now = stamp(join(root, path));
    if (!was || !now || now[0] !== was[0] || now[1] !== was[1]) return true;
  }
  return false;
}
