/**
 * A build step for the page (the Vite config imports it; the page never does): the built-in
 * scenarios migrated and validated at build time, as two modules.
 * - `virtual:first-builtin`: the default document. The first screen used to migrate it on load, the
 *   first zod parse of the page, paying for warming zod's code up — about 60 ms of a cold load's
 *   script time here — before the Step button could be pressed. The page now reads it with
 *   `JSON.parse` (and makes its runnable scenario without a parse: `builtinScenarioOf`).
 * - `virtual:builtin-library`: every built-in document (`library/index.ts`'s `builtinDocs`), which
 *   the page loads right after the first paint; migrating 49 documents there took another ~75 ms of
 *   script time on every page load.
 * A broken built-in fails the build (`migrateBuiltin` throws), as it fails the tests.
 *
 * In `vite dev` and in Vitest the modules re-export the values computed at run time instead (once
 * the document engines have loaded)
 * (lesson edits show up without restarting a server, and tests go through the real path);
 * `test/unit/prebuilt-builtins.test.ts` checks the two agree.
 */
import type { Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

export const FIRST_BUILTIN_ID = 'virtual:first-builtin';
export const BUILTIN_LIBRARY_ID = 'virtual:builtin-library';

const path = (rel: string) => JSON.stringify(fileURLToPath(new URL(rel, import.meta.url)));

type Library = typeof import('./index.ts');
let loaded: Promise<Library> | null = null;

/**
 * `library/index.ts`, loaded through Vite's module runner (TypeScript, JSON imports) only when a
 * build asks for a module: never when a config that lists the plugin loads (`vite preview`, Vitest).
 * Through `after-engines.ts`: the runner's module graph needs its own document engines.
 */
function library(): Promise<Library> {
  return (loaded ??= import('vite')
    .then(({ runnerImport }) => runnerImport<{ library: Library }>(fileURLToPath(new URL('./after-engines.ts', import.meta.url)), { configFile: false, logLevel: 'warn' }))
    .then((r) => r.module.library));
}

/**
 * Outside a build the documents are validated as the module loads, tier patterns with RE2: the
 * document engines (loaded on demand, `harness/util/engines.ts`) are awaited before the import.
 */
const enginesFirst = `await (await import(${path('../../harness/util/index.ts')})).loadDocumentEngines();\n`;

/** `virtual:first-builtin`'s code: the library's first document, precomputed in a build. */
export async function prebuiltFirstModule(build: boolean): Promise<string> {
  if (build) return `export const firstDoc = JSON.parse(${JSON.stringify(JSON.stringify((await library()).builtinDocs[0]))});\n`;
  return `${enginesFirst}export const { firstBuiltinDoc: firstDoc } = await import(${path('./first.ts')});\n`;
}

/** `virtual:builtin-library`'s code: every built-in document, precomputed in a build. */
export async function prebuiltLibraryModule(build: boolean): Promise<string> {
  if (build) return `export const builtinDocs = JSON.parse(${JSON.stringify(JSON.stringify((await library()).builtinDocs))});\n`;
  return `${enginesFirst}export const { builtinDocs } = await import(${path('./index.ts')});\n`;
}

/** The Vite plugin that serves both modules. */
export function prebuiltBuiltins(): Plugin {
  let build = false;
  const modules: Record<string, (build: boolean) => Promise<string>> = { [`\0${FIRST_BUILTIN_ID}`]: prebuiltFirstModule, [`\0${BUILTIN_LIBRARY_ID}`]: prebuiltLibraryModule };
  return {
    name: 'prebuilt-builtins',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId: (id) => (id === FIRST_BUILTIN_ID || id === BUILTIN_LIBRARY_ID ? `\0${id}` : null),
    load: (id) => modules[id]?.(build) ?? null,
  };
}
