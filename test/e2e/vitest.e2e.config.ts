import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { filesAtOnce } from './files-at-once.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * End-to-end tests: the built app (`vite preview` of dist/) driven by Debian's Chromium through
 * playwright-core. Two files at a time where the machine has two cores that really run at once,
 * one otherwise (`files-at-once.ts` measures it, ~0.5 s, and says what it chose): a file keeps ~1.3
 * of two cores busy, waiting on its browser, so a second file fills the rest — the phase went from
 * 365–442 s to 243 s on such a machine (2026-12-06, 194 tests, twice green) — but on a machine whose
 * two CPUs could not both run (CI of 2026-12-04) each file took twice as long. Both files connect to
 * the one Chromium and the servers of `global-setup.ts`; each has its own browser context (browser.ts).
 */
export default defineConfig(async () => {
  const atOnce = await filesAtOnce();
  // Said when the e2e run starts; not when a unit test resolves this config (inside a test worker).
  if (!process.env.VITEST_WORKER_ID) process.stderr.write(`e2e: ${atOnce.files} file${atOnce.files === 1 ? '' : 's'} at a time (${atOnce.why})\n`);
  return {
    root: repoRoot,
    test: {
      include: ['test/e2e/**/*.e2e.ts', 'test/security/**/*.e2e.ts'],
      environment: 'node',
      globalSetup: ['test/e2e/global-setup.ts'],
      // Fixtures build and encode scenarios here too: with yaml and RE2 loaded, as the app's entry points do.
      setupFiles: ['test/helpers/document-engines.ts'],
      fileParallelism: atOnce.files > 1,
      // One module graph per worker for every file it runs (playwright-core and the helpers load once
      // per worker, not per file: the import phase went from ~45 s to ~10 s). Each test still finds a
      // browser context as good as fresh (browser.ts).
      isolate: false,
      maxWorkers: atOnce.files,
      // Generous: a cold Chromium plus a lazily loaded sandbox chunk on a busy 2-core machine.
      // Tests wait for states, never for time, so this only bounds a hang.
      testTimeout: 60_000,
      hookTimeout: 60_000,
      teardownTimeout: 20_000,
      // expect.poll waits for a state of the page; vitest's default gives up after 1 s, a wall-clock
      // limit a loaded machine exceeds (opening a session boots a sandbox). Bound only a hang here.
      expect: { poll: { timeout: 30_000 } },
    },
  };
});
