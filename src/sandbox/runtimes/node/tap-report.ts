/**
 * The TAP report `node --test` prints when its output is not a terminal (how a model sees
 * it): `# Subtest:` headers, `ok N - name` / `not ok N - name` with a YAML block (duration,
 * and for failures the error, code, expected / actual / operator and stack), nested suites
 * indented by four spaces, and the `# tests / # pass / # fail …` summary.
 */
import { withoutInternalFrames } from './frames.ts';

export type TestError = {
  name: string;
  message: string;
  stack: string;
  code?: string;
  operator?: string;
  expected?: string;
  actual?: string;
  failureType?: string;
};

export type TestNode = {
  kind: 'test' | 'suite';
  name: string;
  status: 'pass' | 'fail' | 'skip' | 'todo';
  durationMs: number;
  children: TestNode[];
  error?: TestError;
  reason?: string;
  todo?: boolean;
  diagnostics?: string[];
};

/** What one file's run produced; `error` is a failure outside any test (e.g. a throwing hook). */
export type TestFileResult = { children: TestNode[]; error?: TestError };

export type TapTotals = { tests: number; suites: number; pass: number; fail: number; skipped: number; todo: number };

function yamlString(s: string, indent: string): string {
  if (!s.includes('\n') && !/^[\s'"]|[:#]/.test(s)) return `'${s.replace(/'/g, "''")}'`;
  return `|-\n${s.split('\n').map((l) => `${indent}  ${l}`).join('\n')}`;
}

function block(node: TestNode, indent: string, file: string | undefined): string[] {
  const y = `${indent}  `;
  const out = [`${y}---`, `${y}duration_ms: ${node.durationMs.toFixed(3)}`];
  if (node.kind === 'suite') out.push(`${y}type: 'suite'`);
  if (node.status === 'fail' && node.error) {
    const e = node.error;
    if (file) out.push(`${y}location: '${file}'`);
    out.push(`${y}failureType: '${e.failureType ?? (node.kind === 'suite' ? 'subtestsFailed' : 'testCodeFailure')}'`);
    if (e.failureType !== 'subtestsFailed') {
      out.push(`${y}error: ${yamlString(e.message, y)}`);
      if (e.code) out.push(`${y}code: '${e.code}'`);
      out.push(`${y}name: '${e.name}'`);
      if (e.expected !== undefined) out.push(`${y}expected: ${yamlString(e.expected, y)}`);
      if (e.actual !== undefined) out.push(`${y}actual: ${yamlString(e.actual, y)}`);
      if (e.operator) out.push(`${y}operator: '${e.operator}'`);
      const stack = withoutInternalFrames(e.stack).replace(/\n+$/, '');
      if (stack) out.push(`${y}stack: ${yamlString(stack.replace(/^\s+/gm, ''), y)}`);
    } else {
      out.push(`${y}error: '${e.message}'`, `${y}code: 'ERR_TEST_FAILURE'`);
    }
  }
  out.push(`${y}...`);
  return out;
}

function directive(node: TestNode): string {
  if (node.status === 'skip') return ` # SKIP${node.reason ? ` ${node.reason}` : ''}`;
  if (node.status === 'todo' || node.todo) return ` # TODO${node.reason ? ` ${node.reason}` : ''}`;
  return '';
}

function renderList(nodes: TestNode[], indent: string, totals: TapTotals, file: string | undefined, out: string[]): void {
  nodes.forEach((node, i) => {
    out.push(`${indent}# Subtest: ${node.name}`);
    if (node.children.length > 0) {
      renderList(node.children, `${indent}    `, totals, file, out);
      out.push(`${indent}    1..${node.children.length}`);
    }
    for (const d of node.diagnostics ?? []) out.push(`${indent}# ${d}`);
    out.push(`${indent}${node.status === 'fail' ? 'not ok' : 'ok'} ${i + 1} - ${node.name}${directive(node)}`);
    out.push(...block(node, indent, file));
    if (node.kind === 'suite') totals.suites++;
    else if (node.children.length === 0 || node.kind === 'test') {
      totals.tests++;
      if (node.status === 'pass') totals.pass++;
      else if (node.status === 'fail') totals.fail++;
      else if (node.status === 'skip') totals.skipped++;
      if (node.status === 'todo' || node.todo) totals.todo++;
    }
  });
}

/**
 * One TAP stream for all files, written file by file so it can stream, and numbered across
 * files as Node does. A file that failed outside any test shows as a failing test named after
 * the file.
 */
export class TapWriter {
  readonly totals: TapTotals = { tests: 0, suites: 0, pass: 0, fail: 0, skipped: 0, todo: 0 };
  private count = 0;

  header(): string {
    return 'TAP version 13\n';
  }

  file(path: string, result: TestFileResult): string {
    const top = [...result.children];
    if (result.error) top.push({ kind: 'test', name: path, status: 'fail', durationMs: 0, children: [], error: result.error });
    const out: string[] = [];
    for (const node of top) {
      const lines: string[] = [];
      renderList([node], '', this.totals, path, lines);
      this.count++;
      const own = lines.findIndex((l) => /^(not )?ok 1 - /.test(l));
      if (own >= 0) lines[own] = lines[own]!.replace(/^(not ok|ok) 1 - /, `$1 ${this.count} - `);
      out.push(...lines);
    }
    return out.length ? `${out.join('\n')}\n` : '';
  }

  summary(durationMs: number): string {
    const t = this.totals;
    return [
      `1..${this.count}`,
      `# tests ${t.tests}`, `# suites ${t.suites}`, `# pass ${t.pass}`, `# fail ${t.fail}`,
      '# cancelled 0', `# skipped ${t.skipped}`, `# todo ${t.todo}`, `# duration_ms ${durationMs.toFixed(3)}`,
    ].join('\n') + '\n';
  }
}
