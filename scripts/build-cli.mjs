/**
 * Builds the headless runner into `dist-cli/` (part of `npm run build`; a second or two). esbuild
 * comes with tsx. Bundled, the runner starts without compiling TypeScript or resolving hundreds of
 * modules; the Anthropic SDK and the scenario library are behind dynamic imports, so their modules
 * are evaluated only when a run needs them. Three outputs (src/cli/README.md says why):
 * - `harness.mjs`: the launcher (`src/cli/launch.ts`), what the bin imports;
 * - `runner.cjs`: the runner as one classic script, which the launcher compiles with V8's code cache;
 * - `runner.mjs` and its lazy chunks: the same runner as ES modules (no code cache possible), for a
 *   start that cannot keep a cache; `sandbox-worker.mjs`, the sandbox thread's entry, shares them.
 *
 *   node scripts/build-cli.mjs [--quiet] [--if-stale]
 *
 * `--if-stale` builds only when a source the bundle was built from changed (`cli-bundle-state.mjs`) (what `npm test` and the test
 * run's global setup use, so one `npm test` builds it once).
 */
import { build } from 'esbuild';
import { tokenizer, tokTypes } from 'acorn';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { CLI_BUNDLE, CLI_DIR, ROOT as root, cliBundleStale, writeInputsManifest } from './cli-bundle-state.mjs';

export { CLI_BUNDLE, CLI_DIR, cliBundleStale };

/** `outdir`: another folder (a test file that must not race another's rebuild of dist-cli/); its entry is `harness.mjs`. */
export async function buildCli({ quiet = false, outdir = CLI_DIR } = {}) {
  const t0 = Date.now();
  // Old hashed chunks would pile up (and old code caches with them); the folder is rebuilt from scratch each time.
  rmSync(outdir, { recursive: true, force: true });
  /** What the runner's two builds share: the same sources, packages and rewrites. */
  const runnerBuild = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // Native and optional pieces stay outside the bundle (loaded from node_modules if present).
    // QuickJS's WASM build finds its .wasm beside its own module: it is loaded from node_modules too.
    external: ['node-liblzma', '@mongodb-js/zstd', 'fsevents', '@jitl/quickjs-wasmfile-release-sync'],
    metafile: true,
    plugins: [zodEnglishOnly, justBashLazyHeaders],
  };
  const [esm, cjs] = await Promise.all([
    // The ES-module runner (`runner.mjs`) and the sandbox thread's entry (src/cli/cli-sandbox.ts):
    // Ctrl-C stops a busy guest program at once.
    build({
      ...runnerBuild,
      entryPoints: { runner: 'src/cli/cli-main.ts', 'sandbox-worker': 'src/sandbox/justbash-worker/node-entry.ts' },
      outdir,
      // Lazy chunks beside the entry: what a run does not import (the SDK on a scripted replay, the
      // scenario library on --dir, just-bash's commands the agent never calls, QuickJS and git
      // until `node`/`git` run) is never read, parsed or kept in memory.
      splitting: true,
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      // CommonJS dependencies call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __hpCreateRequire } from 'node:module'; const require = __hpCreateRequire(import.meta.url);" },
    }),
    // The same runner as one classic script (`runner.cjs`), which V8 can compile from a code cache
    // (src/cli/code-cache.ts); its dynamic imports become lazy initialisers inside it.
    build({ ...runnerBuild, entryPoints: ['src/cli/cli-main.ts'], outfile: join(outdir, 'runner.cjs'), format: 'cjs', define: { 'import.meta.url': RUNNER_IMPORT_META_URL }, write: false }),
  ]);
  const script = runnerScript(cjs.outputFiles[0].text);
  writeFileSync(join(outdir, 'runner.cjs'), script.code, script.ascii ? 'latin1' : 'utf8');
  // The launcher (src/cli/launch.ts): Node's built-ins only, unminified (it is a few KB, and what a reader opens first).
  const launcher = await build({
    absWorkingDir: root,
    entryPoints: { harness: 'src/cli/launch.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    metafile: true,
    define: { __RUNNER_BUILD_ID__: JSON.stringify(createHash('sha256').update(script.code).digest('hex').slice(0, 16)), __RUNNER_ASCII__: String(script.ascii) },
  });
  writeFileSync(join(outdir, 'bundle-graph.json'), JSON.stringify({ ...bundleGraph(esm.metafile, outdir), script: { file: 'runner.cjs', bytes: script.code.length, ascii: script.ascii } }, null, 1));
  // Last: what the bin's staleness check compares against (its presence means the build finished).
  const inputs = new Set([esm, cjs, launcher].flatMap((r) => Object.keys(r.metafile.inputs)));
  writeInputsManifest(outdir, [...inputs], t0);
  if (!quiet) {
    const bytes = Object.values(esm.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
    process.stdout.write(`built ${CLI_BUNDLE} (ES modules ${(bytes / 1e6).toFixed(2)} MB, script ${(script.code.length / 1e6).toFixed(2)} MB) in ${Date.now() - t0} ms\n`);
  }
}

/** The name `runner.cjs` reads `import.meta.url` by: the last parameter of its wrapper (the launcher passes the script's URL). */
const RUNNER_IMPORT_META_URL = '__hpImportMetaUrl';

/**
 * esbuild's CommonJS output as `runner.cjs`: wrapped in the function the launcher calls (a
 * CommonJS module's parameters and `import.meta.url`), and ASCII only where esbuild left other
 * characters ({@link asciiRegexps}), so the launcher reads it as a one-byte string. `ascii` false
 * if anything else remains (read as UTF-8 then: correct, a few tens of ms slower).
 */
function runnerScript(text) {
  const code = `(function (exports, require, module, __filename, __dirname, ${RUNNER_IMPORT_META_URL}) {${asciiRegexps(text)}\n})`;
  return { code, ascii: !NON_ASCII.test(code) };
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * esbuild escapes non-ASCII characters in strings, templates and names, but leaves them in
 * regular expression literals (ours, with `…` or curly quotes, and a dependency's). In a regular
 * expression `\uXXXX` stands for the same UTF-16 code unit as the character, with or without the
 * `u` flag (there, an escaped surrogate pair is still one code point); a character after an odd
 * number of backslashes was an identity escape of itself, so that backslash goes. acorn's tokenizer
 * finds the literals (telling a regular expression from a division needs the grammar).
 * Exported for its test.
 */
export function asciiRegexps(code) {
  if (!NON_ASCII.test(code)) return code;
  let out = '';
  let last = 0;
  for (const token of tokenizer(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowHashBang: true })) {
    if (token.type !== tokTypes.regexp) continue;
    const text = code.slice(token.start, token.end);
    if (!NON_ASCII.test(text)) continue;
    out += code.slice(last, token.start) + text.replace(/(\\*)([\u0080-\uffff])/g, (_, slashes, ch) => (slashes.length % 2 ? slashes.slice(1) : slashes) + `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    last = token.end;
  }
  return out + code.slice(last);
}

/**
 * zod's `z.locales` namespace (and `z.core.locales`) re-exports its ~50 locales (264 KB of the 454 KB zod chunk, all of
 * it parsed before the first request); nothing in src/ uses them, and zod's default messages come
 * from `locales/en.js`, which its schemas import directly. In the runner the namespace holds `en`
 * only, so messages stay exactly as they were.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/](external|index)\.js$/.test(args.importer) ? { path: 'zod-locales-en', namespace: 'zod-english-only', pluginData: args.resolveDir } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: 'export { default as en } from "../locales/en.js";\n', resolveDir: args.pluginData, loader: 'js' }));
  },
};

/**
 * A stand-in for `Headers` that reads the global when it is used, not when it is loaded. Node's
 * `Headers` (like `fetch`) is a lazy global: the first read loads Node's bundled undici, ~45–55 ms
 * in a fresh thread. Exported for its test.
 */
export const LAZY_HEADERS =
  'class{constructor(...a){return new globalThis.Headers(...a)}static[Symbol.hasInstance](v){return v instanceof globalThis.Headers}}';

/**
 * just-bash keeps the globals it needs in one small shared chunk, read as that chunk loads
 * (`…,a=globalThis.Headers,…`), and every just-bash module imports it: so the sandbox thread paid
 * for Node's undici before it could answer, for a `Headers` only `curl` uses — a command our sandbox
 * does not even register (it has no network). Here that one read becomes {@link LAZY_HEADERS}: the
 * same constructor and `instanceof`, read at the first `new`. (The others it keeps — `Proxy`,
 * `Atomics`, `SharedArrayBuffer`, `performance.now` — are captured because its defence-in-depth
 * hides them while a script runs; `Headers` is not among those.)
 * `test/unit/cli-startup-loads.test.ts` checks that the sandbox thread answers without loading undici.
 * The unit tests' own worker bundle (`test/unit/sandbox-worker-node.ts`) is built with it too.
 */
export const justBashLazyHeaders = {
  name: 'just-bash-lazy-headers',
  setup(b) {
    b.onLoad({ filter: /[\\/]just-bash[\\/]dist[\\/]bundle[\\/]chunks[\\/]chunk-[A-Z0-9]+\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const read = /([\w$]+)=globalThis\.Headers\b/;
      return read.test(source) ? { contents: source.replace(read, `$1=${LAZY_HEADERS}`), loader: 'js' } : undefined;
    });
  },
};

/** Where a bundled module came from: its npm package, or its source folder (`src/mcp`). */
function origin(input) {
  const nm = input.lastIndexOf('node_modules/');
  if (nm < 0) return input.split('/').slice(0, 2).join('/');
  const rest = input.slice(nm + 'node_modules/'.length).split('/');
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/**
 * `dist-cli/bundle-graph.json`: what the runner reads before it runs any code of its own — the
 * chunks the entry imports statically (transitively), with the packages and source folders in
 * each — and what it may load later; `sandboxThread`, the same for the sandbox thread's entry.
 * `test/unit/cli-startup-loads.test.ts` checks that the heavy pieces (MCP client, SDK, zod, re2js,
 * yaml, just-bash) stay off the start-up path, and the parsers off the sandbox thread's.
 */
function bundleGraph(metafile, outdir) {
  const outs = metafile.outputs;
  const name = (k) => relative(outdir, join(root, k)) || basename(k);
  // By output name: `entryPoint` is the source path as esbuild resolved it (another spelling when src/ is a symlink).
  const entryKey = (file) => Object.keys(outs).find((k) => basename(k) === file);
  /** The chunks an entry imports statically, transitively (what is read before its first line runs). */
  const closure = (key) => {
    const seen = new Set();
    const stack = [key];
    while (stack.length) {
      const k = stack.pop();
      if (seen.has(k)) continue;
      seen.add(k);
      for (const i of outs[k].imports) if (i.kind === 'import-statement' && outs[i.path]) stack.push(i.path);
    }
    return seen;
  };
  const describe = (k) => {
    const by = {};
    for (const [input, v] of Object.entries(outs[k].inputs)) by[origin(input)] = (by[origin(input)] ?? 0) + v.bytesInOutput;
    return { file: name(k), bytes: outs[k].bytes, origins: Object.fromEntries(Object.entries(by).sort((a, b) => b[1] - a[1])) };
  };
  const main = entryKey('runner.mjs');
  if (!main) return { entry: null, startupBytes: null, startup: [], lazy: [], sandboxThread: null };
  const seen = closure(main);
  const chunks = Object.keys(outs).filter((k) => k.endsWith('.mjs'));
  const startup = chunks.filter((k) => seen.has(k)).map(describe);
  // The sandbox thread's entry (started at the beginning of a run, beside the engine loading here):
  // what it reads before it can answer is just-bash and the sandbox, not the harness's parsers.
  const worker = entryKey('sandbox-worker.mjs');
  const workerStartup = worker ? chunks.filter((k) => closure(worker).has(k)).map(describe) : [];
  return {
    entry: name(main),
    startupBytes: startup.reduce((n, c) => n + c.bytes, 0),
    startup,
    lazy: chunks.filter((k) => !seen.has(k)).map(describe),
    sandboxThread: worker ? { entry: name(worker), startupBytes: workerStartup.reduce((n, c) => n + c.bytes, 0), startup: workerStartup } : null,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv.includes('--if-stale') || cliBundleStale()) await buildCli({ quiet: process.argv.includes('--quiet') });
}
