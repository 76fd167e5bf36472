import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * End-to-end tests: the built app (`vite preview` of dist/) driven by Debian's Chromium through
 * playwright-core. One file at a time: on the 2-core machines running this, two files side by side
 * (each with its own Chromium) measured no faster — each file took about twice as long (CI run of
 * 2026-12-04: 1,066 s for the phase with two, custom-tools.e2e 47 s vs 21 s alone) — and a loaded
 * page is where waits run closest to their bounds.
 */
export default defineConfig({
  root: repoRoot,
  test: {
    include: ['test/e2e/**/*.e2e.ts', 'test/security/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    // One module graph for every file (playwright-core and the helpers load once, not per file: the
    // import phase went from ~45 s to ~10 s). Each test still finds a browser context as good as fresh (browser.ts).
    isolate: false,
    maxWorkers: 1,
    // Generous: a cold Chromium plus a lazily loaded sandbox chunk on a busy 2-core machine.
    // Tests wait for states, never for time, so this only bounds a hang.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
    // expect.poll waits for a state of the page; vitest's default gives up after 1 s, a wall-clock
    // limit a loaded machine exceeds (opening a session boots a sandbox). Bound only a hang here.
    expect: { poll: { timeout: 30_000 } },
  },
});
