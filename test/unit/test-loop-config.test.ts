/**
 * The unit run's own set-up (issue 20 §4, issue 21 §7): hooks get a hang guard, not vitest's 10 s
 * default a busy machine exceeds; the CLI bundle is built once per run by the global setup, never
 * by a test file; the fault tests are part of the run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';

const test = config.test!;

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
    expect(test.include).toContain('test/faults/**/*.test.ts');
  });
});
