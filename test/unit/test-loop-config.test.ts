/**
 * The unit run's own set-up (issue 20 §4, issue 21 §7): hooks get a hang guard, not vitest's 10 s
 * default a busy machine exceeds; the CLI bundle is built once per run by the global setup, never
 * by a test file; the fault tests are part of the run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { ALL, ISOLATED } from '../../vitest.config.ts';

const test = config.test!;
const projects = (test.projects ?? []) as { test: { name: string; include?: string[]; exclude?: string[]; isolate?: boolean } }[];
const project = (name: string) => projects.find((p) => p.test.name === name)!.test;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? testFiles(p) : /\.(test|e2e)\.ts$/.test(e) ? [p] : [];
  });
}

describe('the unit run', () => {
  it('bounds hooks by a hang guard of at least 30 s (like tests), not the 10 s default', () => {
    expect(test.hookTimeout).toBeGreaterThanOrEqual(30_000);
    expect(test.testTimeout).toBeGreaterThanOrEqual(30_000);
  });

  it('builds the CLI bundle in its global setup, and no test file builds it', () => {
    expect(test.globalSetup).toContain('test/helpers/build-cli-once.ts');
    const building = testFiles('test').filter((f) => /\bbuildCli\(/.test(readFileSync(f, 'utf8')));
    expect(building).toEqual([]);
  });

  it('includes the fault tests', () => {
    expect(ALL).toContain('test/faults/**/*.test.ts');
    expect(project('shared').include).toEqual(ALL);
  });

  it('runs every file exactly once: shared (one module graph per worker) or isolated (a fresh one per file)', () => {
    expect(project('shared').isolate).toBe(false);
    expect(project('shared').exclude).toEqual(ISOLATED);
    expect(project('isolated').include).toEqual(ISOLATED);
    expect(project('isolated').isolate).not.toBe(false);
    for (const f of ISOLATED) expect(statSync(f).isFile(), f).toBe(true);
  });

  it('keeps isolated every file that changes globals the next file would see', () => {
    // A global IndexedDB (and its databases), stubbed globals, DOM classes put on globalThis (through
    // the `const g = globalThis as …` alias every such file uses), and the helpers that stub them.
    const patching = /fake-indexeddb\/auto|vi\.stubGlobal|stubLocalStorage\(|\bg\.[A-Za-z]+ \?\?=|\bg\.[A-Za-z]+ = |defineProperty\(globalThis/;
    const files = ['test/unit', 'test/security', 'test/faults'].flatMap(testFiles).filter((f) => f.endsWith('.test.ts'));
    const patchers = files.filter((f) => patching.test(readFileSync(f, 'utf8')));
    expect(patchers.length).toBeGreaterThan(5);
    expect(patchers.filter((f) => !ISOLATED.includes(f))).toEqual([]);
  });
});
