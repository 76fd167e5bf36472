/**
 * A build step for the page and its sandbox worker: they load just-bash's code-split ESM build
 * (`dist/bundle/index.js`, the one the headless runner and the unit tests run) instead of its
 * browser bundle (`dist/bundle/browser.js`, the package's `browser` export).
 *
 * Why: the browser bundle is one 1.24 MB file with every command in it, so the worker compiled all
 * of it before its sandbox could answer — on a cold two-core load, ~0.5 s from the worker's start
 * to `ready`, which the first Step waited for (issue 23 §4). The ESM build keeps each command in a
 * chunk of its own, loaded at its first use: the worker's script is ~0.7 MB, and the page's shell
 * parser (loaded at a run's first model request) comes from the same chunk instead of the whole
 * browser bundle. One just-bash for the CLI, the tests, the page and the worker.
 *
 * Both builds come from the same sources; what made the browser bundle a browser bundle is
 * reproduced here, as just-bash's own `build:browser` script does it:
 * - `__BROWSER__` is defined `true`. The ESM build still tests it at run time (its bundler left
 *   `typeof __BROWSER__` in), so the same branches are taken as in the browser bundle: no `tar`,
 *   `python3`, `sqlite3` or `js-exec`; the defence-in-depth box and DNS pinning inert.
 * - `node:module`, `node:dns` and `node:async_hooks`, when just-bash imports them, resolve to inert
 *   stand-ins (the browser bundle's own `browser-unsupported` shim, plus `createRequire`, which the
 *   ESM build's chunks call at load for a `require` they only use in Node). `node:zlib` is already
 *   aliased to our fflate shim (vite.config.ts). Its undici chunk (a DNS-pinned fetch for Node) is
 *   replaced by a module that throws: the code that imports it throws first when `__BROWSER__`.
 * The Node-only parts of that build (the overlay and read-write file systems, the Vercel sandbox
 * API) are what use `node:fs`, `node:path`, `node:crypto` and friends; nothing the page imports
 * reaches them, and the bundler leaves them out.
 *
 * Build only: `vite dev` pre-bundles the browser bundle as before (`parser-export.ts` gives it its
 * `parse` export). Node-side code (vite.config.ts imports it); structurally typed, so `src/` does
 * not import Vite.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Node built-ins just-bash's ESM build imports at load, each standing for an inert module in the browser. */
const INERT_BUILTINS = new Set(['node:module', 'node:dns', 'node:async_hooks']);

const SHIM_ID = '\0just-bash-browser-builtins';
const NO_UNDICI_ID = '\0just-bash-no-undici';

/** The ESM build's undici chunk (its DNS-pinned fetch): behind a `__BROWSER__` check that throws first, never loaded here. */
const UNDICI_CHUNK = /(^|\/)chunks\/undici-[A-Za-z0-9_-]+\.js$/;

/** The inert stand-ins: nothing here runs unless a `__BROWSER__ === false` branch does. */
export const INERT_BUILTINS_SOURCE = [
  'export const AsyncLocalStorage = undefined;',
  'export const Module = undefined;',
  "export function lookup() { throw new Error('node:dns is not available in browser environments'); }",
  "export function createRequire() { return (id) => { throw new Error(`require('${id}') is not available in the browser`); }; }",
  'export default {};',
].join('\n');

/** What stands for the undici chunk: just-bash's browser bundle leaves undici out as well (`--external:undici`). */
export const NO_UNDICI_SOURCE = "throw new Error('undici is not available in the browser: just-bash uses fetch there');";

/** The path of just-bash's code-split ESM build (`dist/bundle/index.js`); throws when the package has none. */
export function justBashEsmBuild(from: string = import.meta.url): string {
  // The package's `require` export is dist/bundle/index.cjs; its ESM build sits beside it.
  const path = join(dirname(createRequire(from).resolve('just-bash')), 'index.js');
  if (!existsSync(path)) throw new Error(`just-bash's ESM build is not at ${path} (src/sandbox/justbash/split-build.ts): the package changed shape`);
  return path;
}

/** Is `importer` a module of just-bash's bundles (`…/just-bash/dist/bundle/…`)? */
export function isJustBashBundle(importer: string | undefined): boolean {
  return importer !== undefined && importer.split('?')[0]!.replaceAll('\\', '/').includes('/just-bash/dist/bundle/');
}

/** The Vite plugin, for the page's build and the worker's (`worker.plugins`). */
export function justBashSplitBuild(esmBuild: string = justBashEsmBuild()): {
  name: string;
  enforce: 'pre';
  apply: 'build';
  config(): { define: Record<string, string> };
  resolveId(id: string, importer?: string): string | null;
  load(id: string): string | null;
} {
  return {
    name: 'just-bash-split-build',
    enforce: 'pre',
    apply: 'build',
    config: () => ({ define: { __BROWSER__: 'true' } }),
    resolveId(id, importer) {
      if (id === 'just-bash') return esmBuild;
      if (!isJustBashBundle(importer)) return null;
      if (INERT_BUILTINS.has(id)) return SHIM_ID;
      // Left to itself the bundler would ship ~0.5 MB of undici twice (page and worker) that no browser path reaches.
      if (UNDICI_CHUNK.test(id)) return NO_UNDICI_ID;
      return null;
    },
    load: (id) => (id === SHIM_ID ? INERT_BUILTINS_SOURCE : id === NO_UNDICI_ID ? NO_UNDICI_SOURCE : null),
  };
}
