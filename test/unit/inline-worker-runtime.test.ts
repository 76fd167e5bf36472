import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { inlineRuntime, inlineWorkerRuntime } from '../../src/sandbox/justbash-worker/inline-runtime.ts';

// Shaped like rolldown's runtime chunk and a worker entry that imports it (minified names collide on purpose).
const RUNTIME = 'var e=Object.defineProperty,t=(n)=>n+1,r=(n)=>n*2,o=(n)=>({wrapped:n});export{t as n,r as r,o as t};';
const ENTRY = 'import{n as e,t}from"./rolldown-runtime-AbC12.js";var n=t(5);globalThis.out=[e(1),n.wrapped];';

describe('the sandbox worker’s copy of the bundler runtime (inline-runtime.ts)', () => {
  it('replaces the import with the runtime’s code, in a scope of its own, and binds the imported names', () => {
    const code = inlineRuntime(ENTRY, 'rolldown-runtime-AbC12.js', RUNTIME)!;
    expect(code).not.toMatch(/\bimport\b|rolldown-runtime/);
    const sandbox: { out?: unknown } = {};
    runInNewContext(code, Object.assign(sandbox, { globalThis: sandbox }));
    expect(sandbox.out).toEqual([2, 5]);
  });

  it('leaves an entry that does not start with an import of that runtime alone', () => {
    expect(inlineRuntime('var a=1;', 'rolldown-runtime-AbC12.js', RUNTIME)).toBeNull();
    expect(inlineRuntime(ENTRY, 'rolldown-runtime-Other.js', RUNTIME)).toBeNull();
  });

  it('stops the build on a runtime it cannot copy safely, saying why', () => {
    const file = 'rolldown-runtime-AbC12.js';
    expect(() => inlineRuntime(ENTRY, file, 'var t=1;')).toThrow(/export clause/);
    expect(() => inlineRuntime(ENTRY, file, `import{x}from"./y.js";${RUNTIME}`)).toThrow(/imports or exports/);
    expect(() => inlineRuntime(ENTRY, file, 'var t=1;export{t as n};')).toThrow(/imports "t", which rolldown-runtime-AbC12.js does not export/);
  });

  it('as a plugin: rewrites the worker’s entry chunk and drops the runtime from its imports, not from the bundle', () => {
    const entry = { type: 'chunk' as const, fileName: 'assets/sandbox-worker-X.js', name: 'sandbox-worker', isEntry: true, code: ENTRY, imports: ['assets/rolldown-runtime-AbC12.js'] };
    const runtime = { type: 'chunk' as const, fileName: 'assets/rolldown-runtime-AbC12.js', name: 'rolldown-runtime', isEntry: false, code: RUNTIME, imports: [] };
    const command = { type: 'chunk' as const, fileName: 'assets/echo-Y.js', name: 'echo', isEntry: false, code: 'import{t as e}from"./rolldown-runtime-AbC12.js";', imports: ['assets/rolldown-runtime-AbC12.js'] };
    const bundle = { [entry.fileName]: entry, [runtime.fileName]: runtime, [command.fileName]: command };
    inlineWorkerRuntime().generateBundle({}, bundle);
    expect(entry.imports).toEqual([]);
    expect(entry.code.startsWith('const{n:e,t:t}=(()=>{')).toBe(true);
    expect(bundle[runtime.fileName]).toBe(runtime);
    expect(command.code).toContain('./rolldown-runtime-AbC12.js');
  });
});
