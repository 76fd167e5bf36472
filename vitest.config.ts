import { svelte } from '@sveltejs/vite-plugin-svelte';
import { tmpdir } from 'node:os';
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
    // Hang guards, not budgets: tests wait for states, and a loaded 2-core machine is slow.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
