/**
 * The e2e suite waits for states of the page, never for time. vitest's `expect.poll` gives up after
 * 1 s unless told otherwise — a wall-clock limit a loaded 2-core machine exceeds (opening an imported
 * session boots a sandbox: the sessions.e2e.ts flake). The config must bound only a hang.
 */
import { describe, expect, it } from 'vitest';
import e2eConfig from '../e2e/vitest.e2e.config.ts';
import { externalBaseUrl } from '../e2e/base-url.ts';

describe('e2e config', () => {
  it('lets expect.poll wait as long as a Playwright wait (30 s), within the test timeout', () => {
    const t = e2eConfig.test!;
    const poll = t.expect?.poll?.timeout ?? 1000;
    expect(poll).toBeGreaterThanOrEqual(30_000);
    expect(poll).toBeLessThan(t.testTimeout!);
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
