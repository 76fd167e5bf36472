/**
 * Import cycles that were cut (issue 10 §4) stay cut. The import graph of `src/**\/*.ts` is read
 * with the TypeScript compiler's own pre-processor (static, type-only, re-export and dynamic
 * imports all count), and checked for: the `ports.ts` / `trace.ts` / `session/types.ts` circle,
 * and any import between `model/` and `scenarios/` in both directions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** file (relative to src) → the src files it imports. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const abs of files(SRC)) {
    const info = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
    const out = new Set<string>();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = resolve(dirname(abs), ref.fileName);
      if (target.startsWith(SRC) && target.endsWith('.ts')) out.add(relative(SRC, target));
    }
    graph.set(relative(SRC, abs), out);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('import cycles stay cut', () => {
  const graph = importGraph();

  it('reads the real graph (the check cannot pass on an empty one)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('harness/trace.ts')).toContain('harness/leaf-types.ts');
    // The detector finds a cycle when there is one.
    expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])]]))).toEqual([['a', 'b']]);
  });

  it('ports.ts, trace.ts and session/types.ts are in no cycle', () => {
    const hot = ['harness/ports.ts', 'harness/trace.ts', 'harness/session/types.ts'];
    const inCycle = cycles(graph).filter((c) => c.some((f) => hot.includes(f)));
    expect(inCycle).toEqual([]);
  });

  it('model/ and scenarios/ do not import each other both ways: scenarios → model only', () => {
    const from = (a: string, b: string) => [...graph].flatMap(([f, deps]) => (f.startsWith(a) ? [...deps].filter((d) => d.startsWith(b)).map((d) => `${f} → ${d}`) : []));
    expect(from('model/', 'scenarios/')).toEqual([]);
    expect(from('scenarios/', 'model/').length).toBeGreaterThan(0);
  });
});
