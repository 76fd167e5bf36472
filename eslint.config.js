import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

const HARNESS_BANNED_PACKAGES = ['svelte', 'svelte/*', 'idb', 'monaco-editor', '@webcontainer/api', '@anthropic-ai/sdk', 'just-bash'];
const HARNESS_INSIDE_MESSAGE = 'src/harness imports nothing outside src/harness (side effects come through ports.ts).';
/** A path into src/harness that is not one of its public entry points. */
const HARNESS_INTERNALS = '^(\\./|(\\.\\./)+)harness/(?!(index|ports|messages|trace|clock|leaf-types)\\.ts$|[a-z-]+/(index|light)\\.ts$)';
const HARNESS_OUTSIDE_MESSAGE = 'Import the harness through harness/index.ts, a contract beside it (ports, messages, trace, clock) or a folder sub-entry point (harness/<folder>/index.ts, or light.ts: its parts that load no heavy package, for the first screen).';

export default ts.config(
  { ignores: ['dist/', 'dist-cli/', '.bench-base-cli-*/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    // The harness core must stay free of the browser: no DOM globals.
    files: ['src/harness/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'indexedDB', 'fetch'],
      // What the harness sorts goes into prompts: its order must not depend on the runtime's locale.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='localeCompare']", message: 'Sort with byCodeUnits (harness/util/order.ts): localeCompare orders by the runtime\'s locale, and its first call builds an ICU collator.' },
      ],
    },
  },
  // The harness imports no browser packages and nothing outside src/harness/ (../ui, ../storage, …):
  // side effects come in through its ports. One block per folder depth, so "outside" is exact.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`src/harness/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: HARNESS_BANNED_PACKAGES }, { regex: `^(\\.\\./){${depth},}`, message: HARNESS_INSIDE_MESSAGE }] }],
    },
  })),
  {
    // Code outside the harness uses its public door: index.ts, the contracts beside it, or a
    // folder's sub-entry point (<folder>/index.ts). Unit tests are exempt: they test internals.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['src/harness/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: HARNESS_INTERNALS, message: HARNESS_OUTSIDE_MESSAGE }] }],
    },
  },
);
