/**
 * The e2e suite waits for states of the page, never for time. vitest's `expect.poll` gives up after
 * 1 s unless told otherwise — a wall-clock limit a loaded 2-core machine exceeds (opening an imported
 * session boots a sandbox: the sessions.e2e.ts flake). The config must bound only a hang.
 */
import { describe, expect, it } from 'vitest';
import type { ViteUserConfig as UserConfig } from 'vitest/config';
import e2eConfig from '../e2e/vitest.e2e.config.ts';
import { externalBaseUrl } from '../e2e/base-url.ts';
import { filesAtOnce } from '../e2e/files-at-once.ts';

/** The config as vitest gets it (a function of the run, measuring the machine first). */
async function resolved(env: Record<string, string> = { E2E_FILES_AT_ONCE: '1' }): Promise<UserConfig> {
  const saved = process.env.E2E_FILES_AT_ONCE;
  process.env.E2E_FILES_AT_ONCE = env.E2E_FILES_AT_ONCE;
  try {
    return await (e2eConfig as unknown as (e: { mode: string; command: string }) => Promise<UserConfig>)({ mode: 'test', command: 'serve' });
  } finally {
    if (saved === undefined) delete process.env.E2E_FILES_AT_ONCE;
    else process.env.E2E_FILES_AT_ONCE = saved;
  }
}

describe('e2e config', () => {
  it('lets expect.poll wait as long as a Playwright wait (30 s), within the test timeout', async () => {
    const t = (await resolved()).test!;
    const poll = t.expect?.poll?.timeout ?? 1000;
    expect(poll).toBeGreaterThanOrEqual(30_000);
    expect(poll).toBeLessThan(t.testTimeout!);
  });

  it('runs files side by side exactly when it decided to, in as many workers', async () => {
    const one = (await resolved({ E2E_FILES_AT_ONCE: '1' })).test!;
    expect([one.fileParallelism, one.maxWorkers]).toEqual([false, 1]);
    const two = (await resolved({ E2E_FILES_AT_ONCE: '2' })).test!;
    expect([two.fileParallelism, two.maxWorkers]).toEqual([true, 2]);
  });

  it('measures the machine unless told: two files only when two threads each keep most of one’s speed', async () => {
    expect(await filesAtOnce({ E2E_FILES_AT_ONCE: '3' })).toEqual({ files: 3, why: 'E2E_FILES_AT_ONCE' });
    // Not a number of files: measured as if unset.
    const measured = await filesAtOnce({ E2E_FILES_AT_ONCE: 'many' });
    expect([1, 2]).toContain(measured.files);
    expect(measured.why).toMatch(measured.files === 2 ? /^two threads each ran at \d+ % of one's speed$/ : /one CPU|only \d+ %/);
  });
});

describe('E2E_BASE_URL (browser tests against an app already served, e.g. `npm run dev`)', () => {
  it('is off unless set; a loopback origin is used as it is', () => {
    expect(externalBaseUrl({})).toBeNull();
    expect(externalBaseUrl({ E2E_BASE_URL: '  ' })).toBeNull();
    expect(externalBaseUrl({ E2E_BASE_URL: 'http://127.0.0.1:5173/' })).toBe('http://127.0.0.1:5173');
    expect(externalBaseUrl({ E2E_BASE_URL: 'http://localhost:4173' })).toBe('http://localhost:4173');
    expect(externalBaseUrl({ E2E_BASE_URL: 'http://[::1]:5173' })).toBe('http://[::1]:5173');
  });

  it('refuses anything that would take the tests off the machine, or is not an origin, saying why', () => {
    expect(() => externalBaseUrl({ E2E_BASE_URL: 'https://harness.example.com' })).toThrow(/loopback.*never leave the machine/);
    expect(() => externalBaseUrl({ E2E_BASE_URL: 'http://127.0.0.2.example.com:5173' })).toThrow(/loopback/);
    expect(() => externalBaseUrl({ E2E_BASE_URL: 'localhost:5173' })).toThrow(/http\(s\)/);
    expect(() => externalBaseUrl({ E2E_BASE_URL: 'not a url' })).toThrow(/not a URL/);
    expect(() => externalBaseUrl({ E2E_BASE_URL: 'http://127.0.0.1:5173/app/' })).toThrow(/no path/);
  });
});
