/**
 * The page's and the sandbox worker's build load just-bash's code-split ESM build
 * (`src/sandbox/justbash/split-build.ts`): the Vite plugin's resolution, its stand-ins for Node
 * built-ins, and the premise it rests on — that build still decides browser or Node at run time on
 * `__BROWSER__`, so defining it gives the browser bundle's branches. That the built page and worker
 * then run every command is the sandbox contract's "every just-bash command loads" case, which the
 * browser self-check runs (`sandbox.e2e.ts`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.ts';
import { INERT_BUILTINS_SOURCE, NO_UNDICI_SOURCE, justBashEsmBuild, justBashSplitBuild } from '../../src/sandbox/justbash/split-build.ts';

const esm = justBashEsmBuild();
const inJustBash = `${esm.replace(/index\.js$/, '')}chunks/chunk-ABC.js`;

async function evaluate(source: string): Promise<Record<string, unknown>> {
  return (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(source)}`)) as Record<string, unknown>;
}

describe("the build's just-bash (split-build.ts)", () => {
  it("resolves just-bash to its ESM build, the runner's, beside the package's require entry", () => {
    expect(esm.replaceAll('\\', '/')).toMatch(/\/just-bash\/dist\/bundle\/index\.js$/);
    const plugin = justBashSplitBuild(esm);
    expect(plugin.resolveId('just-bash', '/work/src/sandbox/justbash/index.ts')).toBe(esm);
    expect(plugin.apply).toBe('build');
    expect(plugin.config().define).toEqual({ __BROWSER__: 'true' });
  });

  it("stands in for node:module, node:dns and node:async_hooks only when just-bash imports them", () => {
    const plugin = justBashSplitBuild(esm);
    const shim = plugin.resolveId('node:module', inJustBash);
    expect(shim).toMatch(/^\0/);
    expect(plugin.resolveId('node:dns', inJustBash)).toBe(shim);
    expect(plugin.resolveId('node:async_hooks', inJustBash)).toBe(shim);
    expect(plugin.load(shim!)).toBe(INERT_BUILTINS_SOURCE);
    // Our own modules and other packages keep the usual resolution (Vite's browser handling).
    expect(plugin.resolveId('node:module', '/work/src/cli/heap.ts')).toBeNull();
    expect(plugin.resolveId('node:fs', inJustBash)).toBeNull();
    expect(plugin.resolveId('./chunks/undici-PSPBDOYF.js', '/work/src/x.ts')).toBeNull();
    const undici = plugin.resolveId('./chunks/undici-PSPBDOYF.js', esm);
    expect(undici).toMatch(/^\0/);
    expect(plugin.load(undici!)).toBe(NO_UNDICI_SOURCE);
  });

  it('the stand-ins are inert at load and say what is missing when called', async () => {
    const m = await evaluate(INERT_BUILTINS_SOURCE);
    expect(m.AsyncLocalStorage).toBeUndefined();
    const req = (m.createRequire as (u: string) => (id: string) => unknown)('file:///x.js');
    expect(() => req('fs')).toThrow(/require\('fs'\) is not available in the browser/);
    expect(() => (m.lookup as () => void)()).toThrow(/node:dns is not available/);
    await expect(evaluate(NO_UNDICI_SOURCE)).rejects.toThrow(/undici is not available in the browser/);
  });

  it('the ESM build still tests __BROWSER__ at run time (else defining it would change nothing) and imports only the stood-in built-ins at load besides fs, path and crypto', () => {
    const code = readFileSync(esm, 'utf8');
    expect(code).toMatch(/typeof __BROWSER__/);
    // The registry's Node-only commands and the defence-in-depth box are gated on it.
    expect(code).toMatch(/__BROWSER__[^;]{0,40}\)&&\([\w$]+\.push\(\{name:"python3"/);
    const builtins = new Set([...code.matchAll(/from"(node:[\w/]+)"/g)].map((m) => m[1]));
    expect([...builtins].sort()).toEqual(['node:crypto', 'node:dns', 'node:fs', 'node:module', 'node:path']);
  });

  it('vite.config.ts uses it for the page and for the sandbox worker', async () => {
    const config = viteConfig as { plugins?: unknown[]; worker?: { plugins?: () => unknown[] } };
    const names = (list: unknown[] | undefined) => (list ?? []).flat().map((p) => (p as { name?: string } | null)?.name);
    expect(names(config.plugins)).toContain('just-bash-split-build');
    expect(names(config.worker?.plugins?.())).toContain('just-bash-split-build');
    // The worker's script and what it imports statically are one file: one fetch before it compiles.
    const worker = config.worker as { rolldownOptions?: { output?: { codeSplitting?: { groups?: unknown[] } } } };
    expect(worker.rolldownOptions?.output?.codeSplitting?.groups).toContainEqual({ name: 'sandbox-worker', tags: ['$initial'] });
  });
});
