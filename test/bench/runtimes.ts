/**
 * `npm run bench:runtimes`: what the sandbox's `node` and `git` cost — the first QuickJS load,
 * `node -e` latency once warm, a `node --test` run on a small project, and git commands on a
 * small repository. Medians of several runs; nothing here asserts a time.
 */
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { quickJsLoadMs } from '../../src/sandbox/runtimes/node/quickjs.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function timeIt(run: () => Promise<unknown>, times: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'bench', version: '1.0.0', scripts: { test: 'node --test' } }),
  'src/sum.js': 'exports.sum = (xs) => xs.reduce((a, b) => a + b, 0);\n',
};
for (let i = 0; i < 5; i++) {
  files[`test/t${i}.test.js`] = `const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../src/sum');\nfor (let k = 0; k < 10; k++) test('case ' + k, () => assert.strictEqual(sum([k, 1]), k + 1));\n`;
}

const sb = await createJustBashSandbox({ files });
const first = performance.now();
await sb.exec('node -e "1"');
const firstMs = performance.now() - first;
const rows: [string, number][] = [
  ['first node -e (loads QuickJS, ms)', firstMs],
  ['  of which the engine load (ms)', quickJsLoadMs() ?? NaN],
  ['node -e "console.log(1)" warm (median ms)', await timeIt(() => sb.exec('node -e "console.log(1)"'), 9)],
  ['node --test, 5 files × 10 tests (median ms)', await timeIt(() => sb.exec('node --test'), 5)],
  ['npm test, same project (median ms)', await timeIt(() => sb.exec('npm test'), 5)],
];
await sb.exec('git init -q && git add -A && git commit -q -m init');
await sb.exec('echo "// change" >> src/sum.js');
rows.push(['git status --short (median ms)', await timeIt(() => sb.exec('git status --short'), 9)]);
rows.push(['git diff (median ms)', await timeIt(() => sb.exec('git diff'), 9)]);
rows.push(['git add -A && git commit (ms)', await timeIt(() => sb.exec('git add -A && git commit -q -m change'), 1)]);
rows.push(['git log --oneline (median ms)', await timeIt(() => sb.exec('git log --oneline'), 9)]);

const width = Math.max(...rows.map(([k]) => k.length));
console.log('sandbox runtimes (just-bash in this thread, Node)');
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v.toFixed(1)}`);
await sb.dispose();
