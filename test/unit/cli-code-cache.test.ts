/**
 * The runner's code cache (issue 23 §3; `src/cli/code-cache.ts`, `src/cli/launch.ts`): the first
 * start writes V8's cache of `runner.cjs`, the next ones compile from it; a torn or foreign file is
 * rejected by V8 and written again; other Node flags get a cache of their own; a folder the cache
 * cannot be written into loses nothing; `HARNESS_PLAYGROUND_CODE_CACHE=off` runs the ES-module
 * runner. Every one of those runs prints the same result. And the build's escaping that keeps
 * `runner.cjs` ASCII (a one-byte string) leaves each regular expression matching what it matched.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_DIR, asciiRegexps } from '../../scripts/build-cli.mjs';
import { codeCacheFileName } from '../../src/cli/code-cache.ts';

// A copy of the built runner under node_modules/ (its optional packages still resolve), with a cache folder of its own.
const COPY = join(process.cwd(), 'node_modules', '.cache', `hp-cli-code-cache-${process.pid}`);
const CACHE_DIR = join(COPY, 'code-cache');

type Run = { code: number | null; stdout: string; stderr: string };

/** The copy's launcher, by default on a built-in scripted scenario (its sandbox thread comes up, so the heap flags are set during the run). */
function run(env: Record<string, string> = {}, args = ['fix-a-bug', '--output-format', 'json']): Promise<Run> {
  return new Promise((done) => {
    const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, NODE_OPTIONS: _o, ...base } = process.env;
    const child = spawn(process.execPath, [join(COPY, 'harness.mjs'), ...args], {
      env: { ...base, HARNESS_PLAYGROUND_CODE_CACHE: 'verbose', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The result object without what differs between any two runs (ids, durations). */
function result(r: Run): unknown {
  expect(r.code, r.stderr).toBe(0);
  const { session_id: _s, uuid: _u, duration_ms: _d, duration_api_ms: _a, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
  return rest;
}

/** What the launcher said about the cache (its `verbose` lines). */
const said = (r: Run) => r.stderr.split('\n').filter((l) => l.includes('code cache:')).join('\n');
const caches = () => (existsSync(CACHE_DIR) ? readdirSync(CACHE_DIR) : []);

beforeAll(() => {
  cpSync(CLI_DIR, COPY, { recursive: true });
  rmSync(CACHE_DIR, { recursive: true, force: true });
});
afterAll(() => rmSync(COPY, { recursive: true, force: true }));

describe('the runner under V8’s code cache', () => {
  it('the first start writes the cache, the next uses it, and both print what the ES-module runner prints', { timeout: 60_000 }, async () => {
    // `off`: the ES-module runner, which neither reads nor writes a cache.
    const esm = await run({ HARNESS_PLAYGROUND_CODE_CACHE: 'off' });
    expect(said(esm)).toBe('');
    expect(caches()).toEqual([]);
    // --help would write none: with none yet, it runs the ES modules (no uncached compile of the whole script).
    const help = await run({}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^harness-playground — /);
    expect(said(help)).toMatch(/none yet, and this command writes none: the ES-module runner/);
    expect(caches()).toEqual([]);

    const first = await run();
    expect(said(first)).toMatch(/none yet: writing one[\s\S]*written /);
    expect(caches()).toHaveLength(1);
    const name = caches()[0]!;
    expect(name).toBe(codeCacheFileName(name.split('-')[1]!, process.versions.v8, [], undefined));
    // Written with the heap flags put back (heap.ts): otherwise V8 would reject it at the next start.
    const second = await run();
    expect(said(second)).toMatch(/^harness-playground: code cache: used /);
    expect(said(second)).not.toMatch(/written/);

    expect(result(first)).toEqual(result(esm));
    expect(result(second)).toEqual(result(esm));
  });

  it('a torn cache and a foreign one are rejected by V8, the run is unchanged, and a whole cache is written again', { timeout: 60_000 }, async () => {
    if (caches().length === 0) await run();
    const file = join(CACHE_DIR, caches()[0]!);
    const whole = statSync(file).size;
    const expected = result(await run());

    truncateSync(file, Math.floor(whole / 2));
    const torn = await run();
    expect(said(torn)).toMatch(/rejected by V8[\s\S]*written /);
    expect(result(torn)).toEqual(expected);
    expect(statSync(file).size).toBeGreaterThan(whole / 2);

    // Bytes of another kind altogether, of a plausible size.
    writeFileSync(file, Buffer.alloc(whole, 0x5a));
    const foreign = await run();
    expect(said(foreign)).toMatch(/rejected by V8/);
    expect(result(foreign)).toEqual(expected);
    expect(said(await run())).toMatch(/used /);
  });

  it('other Node flags get a cache of their own (V8 would reject the other), leaving the first in use', { timeout: 60_000 }, async () => {
    if (caches().length === 0) await run();
    const before = caches();
    const flagged = await run({ NODE_OPTIONS: '--max-old-space-size=300' });
    expect(said(flagged)).toMatch(/none yet: writing one/);
    expect(caches()).toHaveLength(before.length + 1);
    expect(said(await run({ NODE_OPTIONS: '--max-old-space-size=300' }))).toMatch(/used /);
    expect(said(await run())).toMatch(/used /);
  });

  it('a cache that cannot be written loses nothing: the run prints the same and says why', { timeout: 60_000 }, async () => {
    const expected = result(await run({ HARNESS_PLAYGROUND_CODE_CACHE: 'off' }));
    rmSync(CACHE_DIR, { recursive: true, force: true });
    // A file where the folder would be: every write fails (chmod would not stop root).
    writeFileSync(CACHE_DIR, 'not a folder');
    try {
      const r = await run();
      expect(said(r)).toMatch(/none yet[\s\S]*not written \(/);
      expect(result(r)).toEqual(expected);
    } finally {
      rmSync(CACHE_DIR, { force: true });
    }
  });
});

describe('the build keeps runner.cjs ASCII without changing a regular expression', () => {
  it('the built script is ASCII, so the launcher reads it as a one-byte string', () => {
    const graph = JSON.parse(readFileSync(join(CLI_DIR, 'bundle-graph.json'), 'utf8')) as { script: { ascii: boolean } };
    expect(graph.script.ascii).toBe(true);
    expect(readFileSync(join(CLI_DIR, 'runner.cjs')).some((b) => b > 0x7f)).toBe(false);
  });

  // Each case: a regular expression literal with characters esbuild leaves, and strings it must (not) match.
  const cases: [string, string[], string[]][] = [
    ['/[“”‘’"]/g', ['“x”', 'it’s'], ['plain']],
    ['/…$/', ['more…'], ['more...']],
    ['/[\\ud800-\uffff]/', ['\ud801', '\ufffe'], ['abc']],
    // An identity escape of a non-ASCII character is that character.
    ['/\\é+/', ['éé'], ['e']],
    // An escaped backslash before one stays: a backslash, then the character.
    ['/\\\\é/', ['\\é'], ['é']],
    ['/😀{2}/u', ['😀😀'], ['😀']],
    ['/[😀-😂]/u', ['😁'], ['a']],
    ['/^[•·-]\\s/m', ['• item', 'x\n· y'], ['item']],
  ];
  for (const [literal, yes, no] of cases) {
    it(`${literal} matches as before`, () => {
      // A division before it (not a regular expression) and a string after it (esbuild escapes strings) are left alone.
      const code = `var a = 4 / 2, r = ${literal}, s = "é";`;
      const out = asciiRegexps(code);
      expect(out).toMatch(/^var a = 4 \/ 2, r = /);
      expect(out).toMatch(/, s = "é";$/);
      const escaped = out.slice(out.indexOf('r = ') + 4, out.lastIndexOf(', s ='));
      expect(/[\u0080-\uffff]/.test(escaped)).toBe(false);
      const before = new Function(`return ${literal}`)() as RegExp;
      const after = new Function(`return ${escaped}`)() as RegExp;
      expect(after.flags).toBe(before.flags);
      for (const s of [...yes, ...no]) {
        before.lastIndex = 0;
        after.lastIndex = 0;
        expect(after.test(s), `${escaped} on ${JSON.stringify(s)}`).toBe(before.test(s));
      }
      for (const s of yes) expect(new Function(`return ${literal}`)().test(s)).toBe(true);
      for (const s of no) expect(new Function(`return ${literal}`)().test(s)).toBe(false);
    });
  }
  it('code without such characters comes back as it was', () => {
    const code = 'var x = /a+/g.test("b") ? 1 / 2 : `t`;';
    expect(asciiRegexps(code)).toBe(code);
  });
});
