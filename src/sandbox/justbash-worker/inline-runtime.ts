/**
 * A build step for the sandbox worker's script: the bundler's runtime helpers, which it keeps in a
 * chunk of their own (`rolldown-runtime-*.js`, ~0.7 kB) because just-bash's lazily loaded command
 * chunks use them too, are copied into the worker's script.
 *
 * Why: a module worker learns of its script's static imports only once it has compiled the script
 * (~45 ms for its 0.7 MB on a cold two-core load), so the runtime was a second request made after
 * that, and the worker answered its first message only once it had arrived. A trace of a cold
 * load: the fetch took 21 ms on loopback, between the compile and the evaluation; over a network it
 * is a round trip. A cold page's first Step waits for the worker (issue 23 §4).
 *
 * The helpers are plain functions over their arguments (CommonJS wrapping, namespace objects,
 * ES-module interop: no state shared between calls), so a copy in the worker's script behaves as
 * the chunk the command chunks still import. The copy is checked for that shape: a runtime with an
 * import, or an export clause that cannot be read, stops the build with a message instead of
 * producing a worker that fails at load.
 *
 * Build only, for the worker build (`worker.plugins` in vite.config.ts). Node-side code, structurally
 * typed, so `src/` does not import Vite.
 */

type OutputChunk = { type: 'chunk'; fileName: string; name: string; isEntry: boolean; code: string; imports: string[] };
type OutputBundle = Record<string, OutputChunk | { type: 'asset' }>;

/** `import{a as b,c}from"./rolldown-runtime-X.js";` at the start of a minified chunk. */
const RUNTIME_IMPORT = /^import\s*\{([^}]*)\}\s*from\s*"\.\/(rolldown-runtime-[\w-]+\.js)";?/;

/** `export{a as b,c};` closing the runtime chunk. */
const EXPORT_CLAUSE = /export\s*\{([^}]*)\}\s*;?\s*$/;

/** `a as b` / `a` → [imported or exported name, local name]. */
function specifiers(list: string): [string, string][] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(s);
      if (!m) throw new Error(`inline-runtime: cannot read the specifier "${s}"`);
      return [m[1]!, m[2] ?? m[1]!];
    });
}

/**
 * `entryCode` with its import of the runtime chunk replaced by the runtime's code, evaluated in a
 * function of its own (its minified names would otherwise collide with the entry's) that returns
 * the exports the entry imports. Null when the entry does not start with an import of `runtimeFile`.
 */
export function inlineRuntime(entryCode: string, runtimeFile: string, runtimeCode: string): string | null {
  const imp = RUNTIME_IMPORT.exec(entryCode);
  if (!imp || imp[2] !== runtimeFile) return null;
  const body = runtimeCode.trim();
  const exp = EXPORT_CLAUSE.exec(body);
  if (!exp) throw new Error(`inline-runtime: ${runtimeFile} does not end with an export clause; the bundler's runtime changed shape`);
  const code = body.slice(0, exp.index);
  if (/(^|[;\s}])import[\s{("'*]/.test(code) || /\bexport\b/.test(code)) {
    throw new Error(`inline-runtime: ${runtimeFile} has imports or exports besides its closing clause; copying it is not known to be safe`);
  }
  // exported name → local name inside the runtime
  const locals = new Map(specifiers(exp[1]!).map(([local, exported]) => [exported, local] as const));
  const wanted = specifiers(imp[1]!); // [imported name, local name in the entry]
  const returned = wanted.map(([imported]) => {
    const local = locals.get(imported);
    if (!local) throw new Error(`inline-runtime: the worker imports "${imported}", which ${runtimeFile} does not export`);
    return `${imported}:${local}`;
  });
  const bound = wanted.map(([imported, local]) => `${imported}:${local}`);
  return `const{${bound.join(',')}}=(()=>{${code}\nreturn{${returned.join(',')}}})();${entryCode.slice(imp[0].length)}`;
}

/** The Vite plugin (worker build): the entry chunk's runtime import inlined, see above. */
export function inlineWorkerRuntime() {
  return {
    name: 'inline-worker-runtime',
    apply: 'build' as const,
    generateBundle(_options: unknown, bundle: OutputBundle): void {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      for (const entry of chunks.filter((c) => c.isEntry)) {
        const runtime = chunks.find((c) => /^(.*\/)?rolldown-runtime-[\w-]+\.js$/.test(c.fileName) && entry.imports.includes(c.fileName));
        if (!runtime) continue;
        const base = runtime.fileName.replace(/^.*\//, '');
        const code = inlineRuntime(entry.code, base, runtime.code);
        if (code === null) continue;
        entry.code = code;
        entry.imports = entry.imports.filter((f) => f !== runtime.fileName);
      }
    },
  };
}
