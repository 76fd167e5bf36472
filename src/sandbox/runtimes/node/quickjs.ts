/**
 * QuickJS engines for `node` runs, loaded on the first `node` command so the sandbox's first
 * load stays light. The release "sync" build is enough: host calls are synchronous (see
 * snapshot-fs.ts) and the interrupt handler stops busy loops without asyncify's cost.
 *
 * Each run gets its own WebAssembly instance whose memory has a hard `maximum`: QuickJS's own
 * malloc limit does not count large strings in this build (measured: 100 MB of strings passed
 * a 64 MB limit), whereas a memory that cannot grow makes every allocation past the cap fail
 * with "out of memory". A fresh instance also gives the memory back after the run. The
 * module's compiled code is cached by the engine (Node, and the browser's HTTP/code cache),
 * so an instance costs about 10 ms.
 *
 * The variant finds its `.wasm` next to itself (`new URL(..., import.meta.url)`), which Vite
 * rewrites to an emitted asset in builds, including inside the module Worker, and which Node
 * reads from `node_modules`.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';

const PAGE = 64 * 1024;
/** What the module itself asks for at start (its imported memory's minimum): 16 MB. */
const BASE_PAGES = 256;

type Loaded = {
  core: typeof import('quickjs-emscripten-core');
  variant: (typeof import('@jitl/quickjs-wasmfile-release-sync'))['default'];
};

let loading: Promise<Loaded> | null = null;
let firstLoadMs: number | null = null;

function load(): Promise<Loaded> {
  loading ??= Promise.all([import('quickjs-emscripten-core'), import('@jitl/quickjs-wasmfile-release-sync')]).then(([core, v]) => ({
    core,
    variant: v.default,
  }));
  // A failed load (a missing asset, a CSP without 'wasm-unsafe-eval') may be retried later.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

export type Engine = {
  qjs: QuickJSWASMModule;
  /** Whether the engine's memory has reached its cap (so a failure there is out of memory). */
  atMemoryCap(): boolean;
};

/** A fresh engine whose heap may grow by at most `memoryLimitBytes`. */
export async function newEngine(memoryLimitBytes: number): Promise<Engine> {
  const started = Date.now();
  const { core, variant } = await load();
  const maximum = BASE_PAGES + Math.ceil(memoryLimitBytes / PAGE);
  const wasmMemory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum });
  const qjs = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmMemory }));
  firstLoadMs ??= Date.now() - started;
  // Growth happens in steps; within one step of the maximum counts as the cap.
  return { qjs, atMemoryCap: () => wasmMemory.buffer.byteLength >= (maximum - 16) * PAGE };
}

/** How long the first engine took to load, once it has (for the bench and the self-check). */
export function quickJsLoadMs(): number | null {
  return firstLoadMs;
}
