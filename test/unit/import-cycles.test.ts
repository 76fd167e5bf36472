/**
 * Import cycles that were cut (issue 10 §4) stay cut. The import graph of `src/**\/*.ts` is read
 * with the TypeScript compiler's own pre-processor (static, type-only, re-export and dynamic
 * imports all count), and checked for: the `ports.ts` / `trace.ts` / `session/types.ts` circle,
 * and any import between `model/` and `scenarios/` in both directions. Issue 21 §4: no value
 * import makes a cycle anywhere in `src/` (type-only imports vanish at runtime, so they may), and
 * nothing in `harness/` imports from outside it.
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

/** file → the src files it imports at runtime: `import type`, `export type` and all-`type` specifier lists are left out. */
function valueGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const typeOnly = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) => elements.length > 0 && elements.every((e) => e.isTypeOnly);
  for (const abs of files(SRC)) {
    const sf = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, false);
    const out = new Set<string>();
    const add = (spec: string) => {
      if (!spec.startsWith('.')) return;
      const target = resolve(dirname(abs), spec);
      if (target.startsWith(SRC) && target.endsWith('.ts')) out.add(relative(SRC, target));
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const c = node.importClause;
        const onlyTypes = c?.isTypeOnly || (c && !c.name && c.namedBindings && ts.isNamedImports(c.namedBindings) && typeOnly(c.namedBindings.elements));
        if (!onlyTypes) add((node.moduleSpecifier as ts.StringLiteral).text);
        return;
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        const onlyTypes = node.isTypeOnly || (node.exportClause && ts.isNamedExports(node.exportClause) && typeOnly(node.exportClause.elements));
        if (!onlyTypes) add((node.moduleSpecifier as ts.StringLiteral).text);
        return;
      }
      // A dynamic import() is loaded later, once the importer is evaluated: no cycle at load time, but counted anyway.
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!)) add(node.arguments[0].text);
      ts.forEachChild(node, visit);
    };
    visit(sf);
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
    // trace.ts joins the event families of trace/; they import the leaf types.
    expect(graph.get('harness/trace.ts')).toContain('harness/trace/loop.ts');
    expect(graph.get('harness/trace/loop.ts')).toContain('harness/leaf-types.ts');
    // The detector finds a cycle when there is one.
    expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])]]))).toEqual([['a', 'b']]);
  });

  it('ports.ts, trace.ts and session/types.ts are in no cycle', () => {
    const hot = ['harness/ports.ts', 'harness/trace.ts', 'harness/session/types.ts'];
    // …nor are the files they gather (one per port in ports/, one per event family in trace/).
    const inCycle = cycles(graph).filter((c) => c.some((f) => hot.includes(f) || f.startsWith('harness/ports/') || f.startsWith('harness/trace/')));
    expect(inCycle).toEqual([]);
  });

  it('model/ and scenarios/ do not import each other both ways: scenarios → model only', () => {
    const from = (a: string, b: string) => [...graph].flatMap(([f, deps]) => (f.startsWith(a) ? [...deps].filter((d) => d.startsWith(b)).map((d) => `${f} → ${d}`) : []));
    expect(from('model/', 'scenarios/')).toEqual([]);
    expect(from('scenarios/', 'model/').length).toBeGreaterThan(0);
  });

  it('no value import makes a cycle anywhere in src/ (type-only imports may)', () => {
    const values = valueGraph();
    expect(values.get('harness/agents/subagents/agent-tool.ts')).toContain('harness/agents/subagents/run-child.ts');
    // Its type-only import of agent-tool.ts is not an edge; the value import that made the cycle is gone.
    expect(values.get('harness/agents/subagents/run-child.ts')).not.toContain('harness/agents/subagents/agent-tool.ts');
    expect(cycles(values)).toEqual([]);
  });

  it('nothing in harness/ imports from outside it', () => {
    const out = [...graph].flatMap(([f, deps]) => (f.startsWith('harness/') ? [...deps].filter((d) => !d.startsWith('harness/')).map((d) => `${f} → ${d}`) : []));
    expect(out).toEqual([]);
    // The check sees imports out of a folder: scenarios/ imports the harness.
    expect([...graph].some(([f, deps]) => f.startsWith('scenarios/') && [...deps].some((d) => d.startsWith('harness/')))).toBe(true);
  });
});
