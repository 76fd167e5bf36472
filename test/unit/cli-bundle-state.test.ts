/**
 * The bin's staleness check (`scripts/cli-bundle-state.mjs`): it stats only the inputs the last
 * build recorded, and must still never call a stale bundle fresh — an edit (even one that sets an
 * older mtime), a deleted input, a new file beside an input, a file written while the build ran.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliBundleStale, writeInputsManifest } from '../../scripts/cli-bundle-state.mjs';

let root: string;
const past = new Date('2026-01-01T00:00:00Z');

function put(rel: string, text: string, at: Date = past): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
  utimesSync(join(root, rel), at, at);
}

/** A checkout whose bundle was built from src/a.ts and src/lib/b.ts, then recorded. */
function built(started = Date.now()): void {
  for (const f of ['scripts/build-cli.mjs', 'scripts/cli-bundle-state.mjs', 'src/a.ts', 'src/lib/b.ts', 'src/unused.ts']) put(f, `// ${f}\n`);
  for (const d of ['src', 'src/lib', 'scripts']) utimesSync(join(root, d), past, past);
  put('dist-cli/harness.mjs', '// bundle\n', new Date());
  writeInputsManifest(join(root, 'dist-cli'), ['src/a.ts', 'src/lib/b.ts', 'node_modules/zod/index.js', '<runtime>'], started, root);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hp-bundle-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('cliBundleStale', () => {
  it('is fresh right after a build, and a file outside the bundle does not matter', () => {
    built();
    expect(cliBundleStale(root)).toBe(false);
    put('src/unused.ts', '// edited, but not in the bundle\n', new Date());
    expect(cliBundleStale(root)).toBe(false);
  });

  it('is stale with no bundle, or no manifest (a build by an older script)', () => {
    built();
    unlinkSync(join(root, 'dist-cli', 'inputs.json'));
    expect(cliBundleStale(root)).toBe(true);
    rmSync(join(root, 'dist-cli'), { recursive: true });
    expect(cliBundleStale(root)).toBe(true);
  });

  it('is stale after an input is edited in place, with a newer or an older mtime', () => {
    built();
    put('src/lib/b.ts', '// edited\n', new Date());
    expect(cliBundleStale(root)).toBe(true);
    built();
    // `cp -p`, an archive, a checkout tool that keeps times: an older mtime is a change too.
    put('src/a.ts', '// replaced by an older copy\n', new Date('2025-06-01T00:00:00Z'));
    expect(cliBundleStale(root)).toBe(true);
  });

  it('is stale after an input is deleted, or a file appears beside one', () => {
    built();
    unlinkSync(join(root, 'src', 'a.ts'));
    expect(cliBundleStale(root)).toBe(true);
    built();
    writeFileSync(join(root, 'src', 'lib', 'new.ts'), 'export {};\n');
    expect(cliBundleStale(root)).toBe(true);
  });

  it('is stale after the build script changes', () => {
    built();
    put('scripts/build-cli.mjs', '// new build options\n', new Date());
    expect(cliBundleStale(root)).toBe(true);
  });

  it('records an input written while the build ran as unknown, so the next start rebuilds', () => {
    // The build started before the inputs' (past) mtimes were written: esbuild may have read the old text.
    built(past.getTime() - 1000);
    expect(cliBundleStale(root)).toBe(true);
  });

  it('has nothing to compare without src/ (an installed package ships the bundle)', () => {
    built();
    rmSync(join(root, 'src'), { recursive: true });
    expect(cliBundleStale(root)).toBe(false);
  });
});
