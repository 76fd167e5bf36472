/**
 * The sandbox's `node` (QuickJS-WASM) through the real just-bash sandbox: programs, modules,
 * built-ins, node:test, limits, streaming, and npm scripts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_DIR, WORKDIR } from '../../src/harness/ports.ts';
import type { Sandbox } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

let sb: Sandbox;

const PROJECT: Record<string, string> = {
  'lib/math.js': 'exports.add = (a, b) => a + b;\nexports.name = "math";\n',
  'lib/index.js': 'module.exports = require("./math");\n',
  'pkg/package.json': JSON.stringify({ name: 'pkg', main: 'src/entry.js' }),
  'pkg/src/entry.js': 'module.exports = "from main";\n',
  'data.json': '{"items": [1, 2, 3]}',
  'node_modules/tiny/package.json': JSON.stringify({ name: 'tiny', exports: { '.': { require: './cjs.js', import: './esm.mjs' } } }),
  'node_modules/tiny/cjs.js': 'module.exports = { kind: "cjs" };\n',
  'node_modules/tiny/esm.mjs': 'export const kind = "esm";\n',
  'esm/mod.mjs': 'export const x = 1;\nexport default function hi() { return "hi"; }\n',
  'esm/main.mjs': [
    'import hi, { x } from "./mod.mjs";',
    'import { add } from "../lib/index.js";',
    'import fs, { existsSync } from "node:fs";',
    'import { readFile } from "node:fs/promises";',
    'import { join } from "path";',
    'import data from "../data.json";',
    'import { kind } from "tiny";',
    'const text = await readFile("data.json", "utf8");',
    'console.log(hi(), x, add(2, 3), join("a", "b"), existsSync("lib"), typeof fs.readFileSync, data.items.length, text.length, kind);',
    'console.log(import.meta.url);',
  ].join('\n'),
  'reject.js': 'const later = new Promise((_, reject) => setTimeout(() => reject(new RangeError("too far")), 1));\nconsole.log("waiting");\n',
  'reject-handled.js': 'const p = Promise.reject(new Error("x"));\nsetTimeout(() => console.log("still here"), 1);\np.catch((e) => console.log("caught", e.message));\n',
  'reject-listener.js': 'process.on("unhandledRejection", (r) => console.log("listener got", r));\nPromise.reject("plain");\n',
  'boom.js': 'function f() {\n  throw new TypeError("bad thing");\n}\nf();\n',
};

async function run(command: string, opts: Parameters<Sandbox['exec']>[1] = {}) {
  return sb.exec(command, { timeoutMs: 20_000, ...opts });
}

beforeAll(async () => {
  sb = await createJustBashSandbox({ files: PROJECT });
});
afterAll(() => sb.dispose());

describe('node: running programs', () => {
  it('prints its version and refuses the REPL with a clear message', async () => {
    expect((await run('node --version')).stdout).toBe('v22.0.0\n');
    const repl = await run('node');
    expect(repl.exitCode).toBe(1);
    expect(repl.stderr).toMatch(/REPL is not available.*node app\.js/);
    const bad = await run('node --frobnicate x.js');
    expect([bad.exitCode, bad.stderr]).toEqual([9, 'node: bad option: --frobnicate\n']);
  });

  it('runs a file with arguments, writes files, and keeps stdout and stderr apart', async () => {
    await sb.fs.writeFile(
      'app.js',
      [
        'const fs = require("fs");',
        'const lib = require("./lib");',
        'console.log("sum", lib.add(1, 2), { a: 1, b: [1, 2, { c: "x" }] }, process.argv.slice(2));',
        'fs.writeFileSync("out.txt", "written\\n");',
        'fs.appendFileSync("out.txt", "again\\n");',
        'fs.mkdirSync("made/deep", { recursive: true });',
        'console.error("to stderr", new Map([["k", 1]]));',
        'process.stdout.write("no newline");',
      ].join('\n'),
    );
    const r = await run('node app.js one two');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("sum 3 { a: 1, b: [ 1, 2, { c: 'x' } ] } [ 'one', 'two' ]\nno newline");
    expect(r.stderr).toBe("to stderr Map(1) { 'k' => 1 }\n");
    expect(await sb.fs.readFile('out.txt')).toBe('written\nagain\n');
    expect((await sb.fs.stat('made/deep'))?.kind).toBe('dir');
  });

  it('node -e and -p run code in the working directory', async () => {
    const e = await run(`node -e "console.log(require('path').basename('/a/b.txt'), [1,2,3].map(x => x * 2), process.cwd())"`);
    expect(e.stdout).toBe(`b.txt [ 2, 4, 6 ] ${WORKDIR}\n`);
    expect((await run('node -p "6 * 7"')).stdout).toBe('42\n');
    const sub = await run(`node -e "console.log(process.cwd(), require('fs').readdirSync('.'))"`, { cwd: `${WORKDIR}/lib` });
    expect(sub.stdout).toBe(`${WORKDIR}/lib [ 'index.js', 'math.js' ]\n`);
  });

  it('exit codes: process.exit, process.exitCode, an uncaught error (1) with the failing line', async () => {
    expect((await run('node -e "process.exit(7); console.log(1)"')).exitCode).toBe(7);
    const code = await run('node -e "process.exitCode = 3; console.log(\'done\')"');
    expect([code.exitCode, code.stdout]).toEqual([3, 'done\n']);
    const boom = await run('node boom.js');
    expect(boom.exitCode).toBe(1);
    expect(boom.stderr).toContain(`${WORKDIR}/boom.js:2\n  throw new TypeError("bad thing");\n`);
    expect(boom.stderr).toContain('TypeError: bad thing\n    at f (');
    expect(boom.stderr).not.toContain('node:internal');
    const missing = await run('node nothing.js');
    expect([missing.exitCode, missing.stderr.split('\n')[0]]).toEqual([1, `Error: Cannot find module '${WORKDIR}/nothing.js'`]);
  });

  it('an unhandled promise rejection prints the error and exits 1; a handled one or a listener does not', async () => {
    const late = await run('node reject.js');
    expect([late.exitCode, late.stdout]).toEqual([1, 'waiting\n']);
    expect(late.stderr).toContain('RangeError: too far');
    expect(late.stderr).toContain('Node.js v22');
    const plain = await run('node -e "Promise.reject(42)"');
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain('The promise rejected with the reason "42".');
    const chained = await run('node -e "Promise.resolve(1).then(() => { throw new Error(\'in then\') })"');
    expect([chained.exitCode, chained.stderr]).toEqual([1, expect.stringContaining('Error: in then')]);
    const handled = await run('node reject-handled.js');
    expect([handled.exitCode, handled.stdout, handled.stderr]).toEqual([0, 'caught x\nstill here\n', '']);
    const listened = await run('node reject-listener.js');
    expect([listened.exitCode, listened.stdout]).toEqual([0, 'listener got plain\n']);
    const awaited = await run('node -e "(async () => { try { await Promise.reject(new Error(\'e\')) } catch { console.log(\'ok\', [] instanceof Promise, (async () => {})() instanceof Promise) } })()"');
    expect([awaited.exitCode, awaited.stdout]).toEqual([0, 'ok false true\n']);
  });

  it('env reaches process.env', async () => {
    const r = await run('GREETING=hey node -e "console.log(process.env.GREETING, process.env.HOME)"');
    // HOME is the sandbox's own home, separate from the project (see HOME_DIR).
    expect(r.stdout).toBe(`hey ${HOME_DIR}\n`);
  });
});

describe('node: modules', () => {
  it('require resolves files, directories (index.js, package.json main), JSON and node_modules', async () => {
    const r = await run(
      `node -e "console.log(require('./lib').name, require('./pkg'), require('./data.json').items, require('tiny').kind, require.resolve('./lib'))"`,
    );
    expect(r.stdout).toBe(`math from main [ 1, 2, 3 ] cjs ${WORKDIR}/lib/index.js\n`);
  });

  it('ES modules import relative files, built-ins, CommonJS, JSON and packages, with top-level await', async () => {
    const r = await run('node esm/main.mjs');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`hi 1 5 a/b true function 3 20 esm\nfile://${WORKDIR}/esm/main.mjs\n`);
  });

  it('a .js file with import syntax, or under "type": "module", runs as an ES module', async () => {
    await sb.fs.writeFile('typed/package.json', '{"type": "module"}');
    await sb.fs.writeFile('typed/a.js', 'export const a = 1;');
    await sb.fs.writeFile('typed/main.js', 'import { a } from "./a.js"; console.log("typed", a);');
    await sb.fs.writeFile('sniffed.js', 'import { basename } from "node:path";\nconsole.log(basename("/x/y.js"));');
    expect((await run('node typed/main.js')).stdout).toBe('typed 1\n');
    expect((await run('node sniffed.js')).stdout).toBe('y.js\n');
  });

  it('a missing package, an unsupported built-in and a native addon fail naming what is missing', async () => {
    const pkg = await run(`node -e "require('lodash')"`);
    expect(pkg.exitCode).toBe(1);
    expect(pkg.stderr).toMatch(/Cannot find module 'lodash'[\s\S]*offline: packages cannot be installed/);
    const http = await run(`node -e "require('node:http')"`);
    expect(http.stderr).toMatch(/node:http is not available in this sandbox: the sandbox has no network/);
    const child = await run(`node -e "import('child_process').catch(e => { console.log(e.message); })"`);
    expect(child.stdout).toMatch(/node:child_process is not available in this sandbox/);
    await sb.fs.writeFile('addon.node', 'binary');
    const addon = await run(`node -e "require('./addon.node')"`);
    expect(addon.stderr).toMatch(/Cannot load native addon .*addon\.node: .*QuickJS/);
  });
});

describe('node: built-ins', () => {
  it('fs sync, callback and promise forms, with Node error codes', async () => {
    await sb.fs.writeFile(
      'fs-check.js',
      [
        'const fs = require("node:fs");',
        'const fsp = require("fs/promises");',
        'fs.mkdirSync("fsx/a", { recursive: true });',
        'fs.writeFileSync("fsx/a/one.txt", "1");',
        'console.log(fs.existsSync("fsx/a/one.txt"), fs.statSync("fsx/a").isDirectory(), fs.statSync("fsx/a/one.txt").size);',
        'console.log(fs.readdirSync("fsx", { withFileTypes: true }).map(d => d.name + ":" + d.isDirectory()));',
        'try { fs.readFileSync("nope.txt", "utf8"); } catch (e) { console.log(e.code, e.syscall, e.message); }',
        'fs.renameSync("fsx/a/one.txt", "fsx/two.txt");',
        'fs.rmSync("fsx/a", { recursive: true });',
        'console.log(fs.readdirSync("fsx"), fs.readFileSync("fsx/two.txt").toString());',
        '(async () => {',
        '  await fsp.writeFile("fsx/p.txt", "promised");',
        '  console.log(await fsp.readFile("fsx/p.txt", "utf8"), (await fsp.readdir("fsx")).length);',
        '  await fsp.readFile("missing").catch(e => console.log("rejected", e.code));',
        '  fs.readFile("fsx/p.txt", "utf8", (err, text) => console.log("callback", err, text));',
        '})();',
      ].join('\n'),
    );
    const r = await run('node fs-check.js');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'true true 1',
        "[ 'a:true' ]",
        `ENOENT open ENOENT: no such file or directory, open '${WORKDIR}/nope.txt'`,
        "[ 'two.txt' ] 1",
        'promised 2',
        'rejected ENOENT',
        'callback null promised',
        '',
      ].join('\n'),
    );
    expect(await sb.fs.readFile('fsx/p.txt')).toBe('promised');
    expect(await sb.fs.stat('fsx/a')).toBeNull();
  });

  it('path, util.format / inspect, os and events', async () => {
    await sb.fs.writeFile(
      'misc.js',
      [
        'const path = require("path"); const util = require("util"); const os = require("os"); const EventEmitter = require("events");',
        'console.log(path.join("/a", "b", "../c"), path.resolve("x"), path.extname("f.test.js"), path.relative("/a/b", "/a/c/d"), path.parse("/p/q.txt").name);',
        'console.log(util.format("%s has %d items: %j", "cart", 3, { a: [1] }), util.inspect({ deep: { er: { est: { x: 1 } } } }));',
        'console.log(os.EOL === "\\n", os.platform());',
        'const e = new EventEmitter(); e.once("hi", (n) => console.log("hi", n)); e.emit("hi", 1); console.log(e.emit("hi", 2));',
        'class Point { constructor() { this.x = 1; } } console.log(new Point(), [undefined, null, -0, 1n, Symbol("s")], new Error("shown").message);',
        'console.log("%o", "str", Object.create(null), new Set([1]), () => {}, function named() {});',
      ].join('\n'),
    );
    const r = await run('node misc.js');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        `/a/c ${WORKDIR}/x .js ../c/d q`,
        'cart has 3 items: {"a":[1]} { deep: { er: { est: [Object] } } }',
        'true linux',
        'hi 1',
        'false',
        "Point { x: 1 } [ undefined, null, -0, 1n, Symbol(s) ] shown",
        "'str' [Object: null prototype] {} Set(1) { 1 } [Function (anonymous)] [Function: named]",
        '',
      ].join('\n'),
    );
  });

  it('assert and assert/strict: each check passes and fails like Node', async () => {
    await sb.fs.writeFile(
      'asserts.js',
      [
        'const assert = require("node:assert"); const strict = require("node:assert/strict");',
        'const tries = {',
        '  equal: () => assert.equal(1, "1"),',
        '  strictEqual: () => assert.strictEqual(1, 2),',
        '  strictViaStrict: () => strict.equal(1, "1"),',
        '  deepStrictEqual: () => assert.deepStrictEqual({ a: [1, 2] }, { a: [1, 3] }),',
        '  deepOk: () => assert.deepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])),',
        '  throwsOk: () => assert.throws(() => { throw new TypeError("bad"); }, TypeError),',
        '  throwsRegex: () => assert.throws(() => { throw new Error("bad input"); }, /input/),',
        '  throwsObject: () => assert.throws(() => { throw new Error("m"); }, { message: "m" }),',
        '  throwsMissing: () => assert.throws(() => {}),',
        '  ok: () => assert.ok(0),',
        '  match: () => assert.match("abc", /x/),',
        '  notStrictEqual: () => assert.notStrictEqual(1, 1),',
        '};',
        'for (const [name, fn] of Object.entries(tries)) {',
        '  try { fn(); console.log(name, "passed"); } catch (e) { console.log(name, e.code, e.operator, JSON.stringify(e.message)); }',
        '}',
        'assert.rejects(Promise.reject(new Error("r")), /r/).then(() => console.log("rejects passed"));',
        'assert.rejects(Promise.resolve(1)).catch((e) => console.log("rejects failed", e.message));',
      ].join('\n'),
    );
    const r = await run('node asserts.js');
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual([
      'equal passed',
      'strictEqual ERR_ASSERTION strictEqual "Expected values to be strictly equal:\\n\\n1 !== 2\\n"',
      'strictViaStrict ERR_ASSERTION strictEqual "Expected values to be strictly equal:\\n\\n1 !== \'1\'\\n"',
      'deepStrictEqual ERR_ASSERTION deepStrictEqual "Expected values to be strictly deep-equal:\\n+ actual - expected\\n\\n+ { a: [ 1, 2 ] }\\n- { a: [ 1, 3 ] }\\n"',
      'deepOk passed',
      'throwsOk passed',
      'throwsRegex passed',
      'throwsObject passed',
      'throwsMissing ERR_ASSERTION throws "Missing expected exception."',
      'ok ERR_ASSERTION == "The expression evaluated to a falsy value:\\n\\n  assert(0)\\n"',
      'match ERR_ASSERTION match "The input did not match the regular expression /x/. Input:\\n\\n\'abc\'\\n"',
      'notStrictEqual ERR_ASSERTION notStrictEqual "Expected \\"actual\\" to be strictly unequal to: 1"',
      'rejects passed',
      'rejects failed Missing expected rejection.',
      '',
    ]);
  });

  it('timers fire in order, including setInterval and clearTimeout', async () => {
    const r = await run(
      `node -e "const out = []; const t = setTimeout(() => out.push('never'), 5); clearTimeout(t); setTimeout(() => out.push('b'), 20); setTimeout(() => out.push('a'), 10); let n = 0; const i = setInterval(() => { out.push('i' + n); if (++n === 2) clearInterval(i); }, 4); setTimeout(() => console.log(out.join(',')), 40); Promise.resolve().then(() => out.push('micro'));"`,
    );
    expect(r.stdout).toBe('micro,i0,i1,a,b\n');
  });
});
