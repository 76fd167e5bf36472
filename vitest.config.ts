import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Rune-backed state classes (`*.svelte.ts`) are compiled as in the app, so tests can load them.
  plugins: [svelte()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/security/**/*.test.ts', 'test/faults/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // A hang guard for set-up too: building the CLI bundle in a beforeAll takes over 10 s on a busy machine.
    hookTimeout: 120_000,
  },
});
