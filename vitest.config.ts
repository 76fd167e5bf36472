import { svelte } from '@sveltejs/vite-plugin-svelte';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Rune-backed state classes (`*.svelte.ts`) are compiled as in the app, so tests can load them.
  plugins: [svelte()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/security/**/*.test.ts', 'test/faults/**/*.test.ts'],
    environment: 'node',
    // Headless folder runs save their sessions (`--resume`): under a tmp root, never the user's home.
    env: { HARNESS_PLAYGROUND_CONFIG_DIR: join(tmpdir(), `hp-test-sessions-${process.pid}`) },
    // The CLI bundle the runner tests spawn, built once per run (only when the sources changed).
    globalSetup: ['test/helpers/build-cli-once.ts'],
    // Vitest's default is one worker per core minus one: on the 2-core CI machine that is a single
    // worker, and half of a file's time is module loading, which overlaps well. Two workers took the
    // suite from 271 s to 194 s there; on larger machines use every core.
    maxWorkers: Math.max(2, availableParallelism()),
    // Hang guards, not budgets: tests wait for states, and a loaded 2-core machine is slow.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
