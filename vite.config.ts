import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { frameScriptHash } from './src/security/frame-hash-node.ts';
import { metaContentSecurityPolicy, securityHeaders, withCspMeta } from './src/security/headers.ts';
import { justBashParserExport } from './src/sandbox/justbash/parser-export.ts';
import { justBashSplitBuild } from './src/sandbox/justbash/split-build.ts';
import { inlineWorkerRuntime } from './src/sandbox/justbash-worker/inline-runtime.ts';
import { prebuiltBuiltins } from './src/scenarios/library/prebuilt.ts';

// One definition (src/security/headers.ts) for dev, preview and public/_headers (static hosts):
// cross-origin isolation for WebContainer, the CSP and the hardening headers.
const isolationHeaders = securityHeaders(frameScriptHash());

/** Source folders whose modules have no load-time side effects (see `build.rolldownOptions`). */
const PURE_LAYERS = /\/src\/(harness|scenarios|storage|model|run|mcp)\/[^?]*\.ts$/;

export default defineConfig({
  plugins: [
    svelte(),
    // The build's index.html carries the policy as a <meta> too, for hosts that ignore _headers (dev keeps only the header: Vite injects inline scripts there).
    { name: 'csp-meta', apply: 'build', transformIndexHtml: (html: string) => withCspMeta(html, metaContentSecurityPolicy(frameScriptHash())) },
    // `vite dev` pre-bundles just-bash's browser bundle: it gets the `parse` export the page's permission check needs (the build's ESM build has it).
    justBashParserExport(),
    // The build loads just-bash's code-split ESM build, commands on demand, as the headless runner does (see the module).
    justBashSplitBuild(),
    // The built-in scenarios, migrated (the default one also made runnable) at build time: no zod parse on load.
    prebuiltBuiltins(),
  ],
  // just-bash's browser build imports node:zlib for gzip/gunzip/zcat/rg; a small fflate shim stands in.
  resolve: { alias: { 'node:zlib': fileURLToPath(new URL('./src/sandbox/justbash/zlib-shim.ts', import.meta.url)) } },
  server: { headers: isolationHeaders },
  // The QuickJS variant finds its .wasm next to itself (new URL(..., import.meta.url)); pre-bundling
  // would move the JS into .vite/deps without the .wasm, so `node` in `vite dev` needs it excluded.
  // `vite dev` pre-bundles just-bash, where the plugins above do not run: the same rewrite runs in the
  // pre-bundling too, or the page's `import { parse } from 'just-bash'` fails and no run can start.
  optimizeDeps: {
    exclude: ['@jitl/quickjs-wasmfile-release-sync'],
    rolldownOptions: { plugins: [{ name: 'just-bash-parser-export', transform: justBashParserExport().transform }] },
  },
  preview: { headers: isolationHeaders },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    // Our pure-TypeScript layers run nothing at load time but building schemas and tables, which the
    // bundler must otherwise keep (a `z.object()` call might have effects): declared side-effect
    // free, a module the page does not use is left out even when a barrel (`harness/index.ts`,
    // `<folder>/index.ts`) re-exports it, so the first screen does not carry the loop, agents, MCP.
    // A module imported only for its effects must not live in these folders (the just-bash
    // globals live in `sandbox/`, which is not listed).
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !PURE_LAYERS.test(id) },
      // Everything the first screen imports statically goes into the entry chunk. Left to itself the
      // bundler split it into ~30 chunks (the pieces lazily loaded code shares with it, many under
      // 2 kB); a fresh visitor's browser fetched them over HTTP/1.1's six connections in waves and the
      // page could start only when the last arrived (~250 → 850 ms after navigation on a 2-core
      // machine). One chunk: cold usable 90–160 ms sooner in alternated runs (bench
      // first-screen.ts). Lazy chunks import what they share with the first screen from it, which
      // is loaded by then anyway.
      // ASCII only (non-ASCII characters escaped, where the language allows it): a script with one
      // non-ASCII byte is decoded into a two-byte string, slower to decode and for V8 to scan.
      // `test/e2e/build-output.e2e.ts` checks what a first visit loads; see the worker's note below.
      // RE2JS and yaml load on demand (`harness/util/engines.ts`), each as a chunk named after it
      // (the bundler would name them after their files, `build-*.js` and `browser-*.js`); so does zod,
      // which every lazy chunk that validates shares (`schemas-*.js` otherwise). What a Step loads
      // (`start-run.ts` and its static imports: the harness) is one chunk: with zod and the schemas out
      // of the entry, the bundler split it into 33 pieces shared with the panels (8 alternated cold
      // loads, visitor's browser: usable 360 -> 290 ms as one chunk; the first Step unchanged).
      output: {
        charset: 'ascii',
        codeSplitting: {
          groups: [
            { name: 'first-screen', tags: ['$initial'] },
            { name: 're2js', test: /node_modules[\\/]re2js[\\/]/ },
            { name: 'yaml', test: /node_modules[\\/]yaml[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'harness', test: /src[\\/]ui[\\/]state[\\/]start-run\.ts$/ },
          ],
        },
      },
    },
  },
  // The sandbox worker bundles just-bash the same way as the page (`worker.plugins` are the worker build's own),
  // with the bundler's runtime helpers copied into its script: one request before it can answer, not two.
  worker: {
    format: 'es',
    plugins: () => [justBashSplitBuild(), inlineWorkerRuntime()],
    // Its static imports in its own file, as the page's first screen (above): left to itself the bundler
    // split off three small chunks that just-bash's command chunks share, which the worker fetches only
    // after compiling its script (seen in a trace; the first-screen bench's difference was within its
    // noise). Rolldown still keeps its ~1 kB runtime apart; `inlineWorkerRuntime` copies it in.
    // ASCII only, as the page: 12 non-ASCII bytes made its 0.7 MB script a two-byte string, 23–27 ms of
    // decoding on the worker's thread (4–5 ms as ASCII, in a trace) before a cold page's first Step
    // could run (its first Step clicked in the frame Step is enabled, as the first-screen bench times it,
    // two runs of 8 alternated cold loads: 374 / 383 → 361 / 365 ms).
    rolldownOptions: { output: { charset: 'ascii', codeSplitting: { groups: [{ name: 'sandbox-worker', tags: ['$initial'] }] } } },
  },
});
