/**
 * The sandbox's `node` under `node --test`, `npm` scripts, limits (timeout, Stop, memory cap)
 * and streaming output, through the real just-bash sandbox.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const TESTS_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'inv', version: '1.0.0', scripts: { test: 'node --test', greet: 'node greet.js', fail: 'node -e "process.exit(2)"' } }),
  'greet.js': 'console.log("hello", process.argv.slice(2).join(" "));\n',
  'src/sum.js': 'exports.sum = (xs) => xs.reduce((a, b) => a + b, 0);\n',
  'test/sum.test.js': [
    "const { test, describe, it, before, beforeEach, afterEach, after } = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { sum } = require('../src/sum');",
    'const log = [];',
    "before(() => log.push('before'));",
    "beforeEach(() => log.push('beforeEach'));",
    "afterEach(() => log.push('afterEach'));",
    "after(() => console.log('hooks', log.join(',')));",
    "test('adds numbers', () => { assert.equal(sum([1, 2, 3]), 6); });",
    "test('async test', async () => { await new Promise((r) => setTimeout(r, 5)); assert.ok(true); });",
    "test('callback test', (t, done) => { setTimeout(done, 1); });",
    // Guest code for the sandbox's `node --test` (not a Vitest test): a skip with a reason is
    // reported as `# SKIP <reason>` and its body never runs.
    "test('skipped test', { skip: 'reason printed by the guest runner' }, () => { throw new Error('never'); });",
    "describe('empty input', () => {",
    "  it('is zero', () => { assert.equal(sum([]), 0); });",
    "  it('is wrong on purpose', () => { assert.deepStrictEqual({ total: sum([2]) }, { total: 3 }); });",
    '});',
    "test('with subtests', async (t) => { await t.test('inner passes', () => {}); });",
  ].join('\n'),
  'lib/helper.js': 'module.exports = 1;\n',
  'lib/helper_test.mjs': "import test from 'node:test';\nimport assert from 'node:assert';\ntest('esm test file', () => assert.strictEqual(1, 1));\n",
  'notes/readme.js': 'throw new Error("must not run");\n',
};

describe('node --test', () => {
  it('discovers test files by Node rules and prints a TAP report with totals; exit 1 on failure', async () => {
    const sb = await createJustBashSandbox({ files: TESTS_PROJECT });
    const r = await sb.exec('node --test', { timeoutMs: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(1);
    const out = r.stdout;
    expect(out.startsWith('TAP version 13\n')).toBe(true);
    expect(out).toContain('# Subtest: esm test file\nok 1 - esm test file\n');
    expect(out).toContain('ok 2 - adds numbers\n');
    expect(out).toContain('ok 3 - async test\n');
    expect(out).toContain('ok 4 - callback test\n');
    expect(out).toContain('ok 5 - skipped test # SKIP reason printed by the guest runner\n');
    expect(out).toContain('    # Subtest: is wrong on purpose\n    not ok 2 - is wrong on purpose\n');
    expect(out).toContain("      failureType: 'testCodeFailure'\n");
    expect(out).toContain("      code: 'ERR_ASSERTION'\n");
    expect(out).toContain("      operator: 'deepStrictEqual'\n");
    expect(out).toContain('not ok 6 - empty input\n');
    expect(out).toContain('    ok 1 - inner passes\n');
    expect(out).toContain('# hooks before,beforeEach,afterEach,beforeEach,afterEach');
    expect(out).toMatch(/1\.\.7\n# tests 9\n# suites 1\n# pass 7\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 0\n# duration_ms \d/);
    expect(out).not.toContain('must not run');
    await sb.dispose();
  });

  it('runs the named files only, exit 0 when all pass; a missing path is an error', async () => {
    const sb = await createJustBashSandbox({ files: TESTS_PROJECT });
    const r = await sb.exec('node --test lib/helper_test.mjs', { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/# tests 1\n# suites 0\n# pass 1\n# fail 0/);
    const missing = await sb.exec('node --test nope.test.js');
    expect([missing.exitCode, missing.stderr]).toEqual([1, `Could not find '${WORKDIR}/nope.test.js'\n`]);
    await sb.dispose();
  });

  it('mock.fn and mock.method record calls as Node does', async () => {
    const sb = await createJustBashSandbox({
      files: {
        'mock.test.js': [
          "const { test, mock } = require('node:test');",
          "const assert = require('node:assert/strict');",
          "test('fn', () => { const f = mock.fn((x) => x * 2); assert.equal(f(3), 6); assert.equal(f.mock.callCount(), 1); assert.deepEqual(f.mock.calls[0].arguments, [3]); });",
          "test('method', (t) => { const obj = { hi: () => 'real' }; const m = t.mock.method(obj, 'hi', () => 'fake'); assert.equal(obj.hi(), 'fake'); m.mock.restore(); assert.equal(obj.hi(), 'real'); });",
        ].join('\n'),
      },
    });
    const r = await sb.exec('node --test', { timeoutMs: 30_000 });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/# pass 2\n# fail 0/);
    await sb.dispose();
  });

  it('a test file that throws at load fails as a test named after the file', async () => {
    const sb = await createJustBashSandbox({ files: { 'broken.test.js': 'require("./missing-module");\n' } });
    const r = await sb.exec('node --test', { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`not ok 1 - ${WORKDIR}/broken.test.js\n`);
    expect(r.stdout).toContain("# Error: Cannot find module './missing-module'");
    expect(r.stdout).toContain('# fail 1');
    await sb.dispose();
  });
});

describe('npm', () => {
  it('npm test and npm run run package.json scripts with npm banners and exit codes', async () => {
    const sb = await createJustBashSandbox({ files: TESTS_PROJECT });
    const t = await sb.exec('npm test', { timeoutMs: 30_000 });
    expect(t.exitCode).toBe(1);
    expect(t.stdout.startsWith('\n> inv@1.0.0 test\n> node --test\n\nTAP version 13\n')).toBe(true);
    expect(t.stderr).toContain('npm error Lifecycle script `test` failed with error:\nnpm error code 1\n');
    const greet = await sb.exec('npm run greet -- big world');
    expect([greet.exitCode, greet.stdout]).toEqual([0, '\n> inv@1.0.0 greet\n> node greet.js big world\n\nhello big world\n']);
    expect((await sb.exec('npm run fail')).exitCode).toBe(2);
    const list = await sb.exec('npm run');
    expect(list.stdout).toContain('  greet\n    node greet.js');
    const missing = await sb.exec('npm run nope');
    expect([missing.exitCode, missing.stderr.split('\n')[0]]).toEqual([1, 'npm error Missing script: "nope"']);
    const sub = await sb.exec('npm run greet', { cwd: `${WORKDIR}/src` });
    expect(sub.stdout).toContain('hello');
    await sb.dispose();
  });

  it('registry commands and npx fail saying the sandbox is offline; no package.json is ENOENT', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const install = await sb.exec('npm install lodash');
    expect([install.exitCode, install.stderr]).toEqual([1, expect.stringMatching(/npm install is not available in the sandbox: it is offline/)]);
    const npx = await sb.exec('npx jest');
    expect([npx.exitCode, npx.stderr]).toEqual([1, expect.stringMatching(/npx is not available in the sandbox/)]);
    const none = await sb.exec('npm test');
    expect([none.exitCode, none.stderr]).toEqual([254, expect.stringContaining('npm error code ENOENT')]);
    await sb.dispose();
  });
});

describe('node limits and streaming', () => {
  it('a timeout ends a busy loop (exit 124) and the sandbox stays usable', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    await sb.exec('node -e "1"');
    const r = await sb.exec('node -e "while (true) {}"', { timeoutMs: 500 });
    expect([r.exitCode, r.timedOut]).toEqual([124, true]);
    expect((await sb.exec('node -p "1 + 1"')).stdout).toBe('2\n');
    await sb.dispose();
  });

  it('Stop ends a program waiting on a timer (exit 130) and keeps the files it wrote', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    await sb.exec('node -e "1"');
    const controller = new AbortController();
    const chunks: string[] = [];
    const r = sb.exec(`node -e "require('fs').writeFileSync('early.txt', 'kept'); console.log('waiting'); setTimeout(() => console.log('late'), 60000)"`, {
      signal: controller.signal,
      onOutput: (c) => {
        chunks.push(c.text);
        if (c.text.includes('waiting')) controller.abort();
      },
    });
    const done = await r;
    expect([done.exitCode, done.aborted]).toEqual([130, true]);
    expect(done.stdout).toBe('waiting\n');
    expect(await sb.fs.readFile('early.txt')).toBe('kept');
    await sb.dispose();
  });

  it('memory is capped with a clear error and exit 134', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const r = await sb.exec(`node -e "const a = []; while (true) a.push('x'.repeat(10000) + a.length)"`, { timeoutMs: 60_000 });
    expect([r.exitCode, r.stderr]).toEqual([134, 'node: out of memory (limit 64 MB)\n']);
    expect((await sb.exec('node -p "[1, 2].length"')).stdout).toBe('2\n');
    await sb.dispose();
  });

  it('output streams while the program runs, and is not delivered twice', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const chunks: { stream: string; text: string }[] = [];
    const r = await sb.exec(`echo before; node -e "console.log('one'); setTimeout(() => { console.error('two'); console.log('three'); }, 20)"; echo after`, {
      onOutput: (c) => chunks.push(c),
    });
    expect(r.stdout).toBe('before\none\nthree\nafter\n');
    expect(chunks.slice(0, 3)).toEqual([
      { stream: 'stdout', text: 'one\n' },
      { stream: 'stderr', text: 'two\n' },
      { stream: 'stdout', text: 'three\n' },
    ]);
    const all = chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join('');
    expect(all.split('one').length).toBe(2);
    expect(all).toContain('before\n');
    expect(all).toContain('after\n');
    await sb.dispose();
  });
});
