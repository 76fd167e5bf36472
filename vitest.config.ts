import { svelte } from '@sveltejs/vite-plugin-svelte';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { prebuiltBuiltins } from './src/scenarios/library/prebuilt.ts';

/** Every unit, security and fault test file. */
export const ALL = ['test/unit/**/*.test.ts', 'test/security/**/*.test.ts', 'test/faults/**/*.test.ts'];

/**
 * Files that change the process for whoever runs next: a global IndexedDB (`fake-indexeddb/auto`,
 * whose databases would outlive the file), `localStorage`, DOM classes or `crossOriginIsolated` put
 * on `globalThis`. Each runs in a fresh module graph of its own, as every file once did.
 */
export const ISOLATED = [
  // fake-indexeddb/auto: a global indexedDB, and databases that stay for the next file.
  'test/unit/memory-select.test.ts',
  'test/unit/memory-store.test.ts',
  'test/unit/progress-store.test.ts',
  'test/unit/session-store.test.ts',
  'test/unit/user-scope-store.test.ts',
  'test/security/corrupt-storage.test.ts',
  'test/security/key-redaction.test.ts',
  // Globals the code reads to tell a browser from Node (localStorage, HTMLElement, crossOriginIsolated).
  'test/unit/ui-page-state.test.ts',
  'test/unit/ui-lazy-start.test.ts',
  'test/unit/ui-boot-seed.test.ts',
  'test/unit/ui-keyboard.test.ts',
  'test/unit/ui-session-lock-grant.test.ts',
  'test/unit/ui-workspaces.test.ts',
  'test/unit/sandbox-select.test.ts',
  // Asserts a module's state before its first use (the built-ins before load()).
  'test/unit/builtins-lazy.test.ts',
  // Takes fresh module graphs (vi.resetModules) in which the document engines have not loaded, and mocks re2js's load failing.
  'test/unit/document-engines.test.ts',
];

export default defineConfig({
  // Rune-backed state classes (`*.svelte.ts`) are compiled as in the app, so tests can load them.
  // `virtual:first-builtin` and `virtual:builtin-library` (the page's built-ins) computed at load time, as in `vite dev`.
  plugins: [svelte(), prebuiltBuiltins()],
  test: {
    environment: 'node',
    // Headless folder runs save their sessions (`--resume`): under a tmp root, never the user's home.
    env: { HARNESS_PLAYGROUND_CONFIG_DIR: join(tmpdir(), `hp-test-sessions-${process.pid}`) },
    // The CLI bundle the runner tests spawn, built once per run (only when the sources changed).
    globalSetup: ['test/helpers/build-cli-once.ts'],
    // yaml and RE2 load on demand (`harness/util/engines.ts`): loaded before each file, as the entry points do.
    setupFiles: ['test/helpers/document-engines.ts'],
    // Vitest's default is one worker per core minus one: on the 2-core CI machine that is a single
    // worker, and half of a file's time is module loading, which overlaps well. Two workers took the
    // suite from 271 s to 194 s there; on larger machines use every core.
    maxWorkers: Math.max(2, availableParallelism()),
    // Hang guards, not budgets: tests wait for states, and a loaded 2-core machine is slow.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      // Most files only import modules and call them: they share one module graph per worker, so
      // the harness, just-bash and zod are loaded once per worker instead of once per file (about
      // 210 s of the 296 s unit phase on CI was that loading).
      { extends: true, test: { name: 'shared', include: ALL, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
