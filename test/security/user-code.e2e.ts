/**
 * Attacks from a trusted JS hook: it runs in the opaque-origin user-code sandbox, so it must reach
 * none of the app's storage, no network and not the page — even with a server ready to answer it
 * — and a busy loop in it must not freeze the page.
 */
import { afterAll, beforeAll } from 'vitest';
import { openApp, waitForStatus, openTab } from '../e2e/app.ts';
import { allowConsoleErrors, expect, inject, test, type Page } from '../e2e/browser.ts';
import { linkPath, openAt } from '../e2e/safety-fixtures.ts';
import { startCanary, type Canary } from './canary-server.ts';
import { attackHookCode, jsHookScenario } from './hook-attacks.ts';

let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(async () => {
  await canary.close();
});

const MARKER = 'hp-attack-marker-7f3a';

/** Open a link, trust it, run it to the end; returns the SessionStart hook's row. */
async function trustAndRun(page: Page, path: string) {
  await openAt(page, path);
  await page.getByTestId('trust-dialog').waitFor();
  // The dialog says plainly what trusted code can and cannot reach.
  const reach = (await page.getByTestId('trust-reach').textContent()) ?? '';
  expect(reach).toMatch(/can reach.*sandbox's files/i);
  expect(reach).toMatch(/cannot reach.*storage.*API key.*network/is);
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await openTab(page, 'hooks');
  const row = page.getByTestId('hooks-timeline').locator('[data-testid="hook-row"][data-event="SessionStart"]');
  await row.waitFor();
  return row;
}

test('a trusted JS hook reaches none of the app storage, the network or the page', async ({ page }) => {
  // The refusals are logged by the browser as CSP violations / security errors: expected here.
  allowConsoleErrors(page, /Content Security Policy|Refused to|SecurityError|ERR_|Failed to load|net::|blocked/i);
  // Chromium sometimes also reports the refused indexedDB.databases() of the sandboxed worker as
  // a page error with no text at all.
  allowConsoleErrors(page, /^pageerror: $/);
  // Plant secrets where an attacker would look: the app's localStorage, cookies and IndexedDB.
  await openApp(page);
  await page.evaluate(async (marker) => {
    localStorage.setItem('hp-attack-marker', marker);
    document.cookie = `hp-attack=${marker}`;
    await new Promise<void>((resolve, reject) => {
      const r = indexedDB.open('attack-target', 1);
      r.onupgradeneeded = () => r.result.createObjectStore('secrets').put(marker, 'k');
      r.onsuccess = () => (r.result.close(), resolve());
      r.onerror = () => reject(r.error);
    });
  }, MARKER);

  const appOrigin = new URL(inject('baseUrl')).origin;
  const code = attackHookCode({ canary: canary.url, canaryWs: canary.wsUrl, appOrigin });
  const row = await trustAndRun(page, linkPath(jsHookScenario('storage-network-page', code)));
  expect(await row.getAttribute('data-exit-code')).toBe('0');
  await row.click();
  const report = JSON.parse((await page.getByTestId('hook-stdout').textContent()) ?? '{}') as Record<string, unknown>;

  const attempts = Object.entries(report).filter(([k]) => k !== 'ran' && k !== 'origin');
  expect(attempts.map(([k]) => k)).toEqual(
    expect.arrayContaining(['indexedDB.open', 'localStorage', 'caches', 'fetch canary', 'WebSocket', 'importScripts canary', 'import() app', 'sendBeacon', 'img', 'parent.document', 'top.location', 'window.opener']),
  );
  const reached = attempts.filter(([, v]) => !String(v).startsWith('blocked: '));
  expect(reached, `attempts that got through: ${JSON.stringify(reached)}`).toEqual([]);
  expect(JSON.stringify(report)).not.toContain(MARKER);
  // The hook did run, in an opaque origin.
  expect(report.ran).toBe(true);
  expect(report.origin).toBe('null');
  // Nothing left the sandbox: the canary, which would have answered anything, saw no request.
  expect(canary.hits()).toEqual([]);
  // And the app's own data is still there, untouched.
  expect(await page.evaluate(() => localStorage.getItem('hp-attack-marker'))).toBe(MARKER);
});

test('a busy loop in a JS hook does not freeze the page and is stopped at its timeout', async ({ page }) => {
  const row = page.getByTestId('hooks-timeline').locator('[data-testid="hook-row"][data-event="SessionStart"]');
  await openAt(page, linkPath(jsHookScenario('busy-loop', 'while (true) {}', 3)));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  // While the hook spins (it has no row until it ends), the page still answers: a script runs,
  // an animation frame comes, and a click switches the side panel's tab.
  await expect.poll(async () => (await page.getByTestId('run-status').textContent())?.trim()).toBe('running');
  expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1 + 1))))).toBe(2);
  // A reply forged from anywhere but the sandbox frame (here the page itself) is ignored.
  await page.evaluate(() =>
    window.postMessage({ channel: 'hp-user-code', id: 'job-1', kind: 'message', payload: { exitCode: 0, stdout: 'forged', stderr: '' } }, '*'),
  );
  await openTab(page, 'hooks');
  expect(await row.count()).toBe(0);
  expect(await page.getByTestId('hooks-timeline').isVisible()).toBe(true);
  // Had the loop run on the page's thread, no timer could fire and the run would never end.
  await waitForStatus(page, 'done');
  await row.waitFor();
  await row.click();
  expect(await page.getByTestId('hook-stderr').textContent()).toBe('The JS hook did not finish within 3000 ms and was stopped.');
  expect(await row.textContent()).toContain('timed out');
  // The spinning worker is gone, not left burning a core (Chromium ends a terminated busy worker
  // within a second or two).
  await expect.poll(() => page.workers().filter((w) => w.url().startsWith('blob:')).length).toBe(0);
});

test('in the sandbox, hook code that does not parse is reported as not compiling', async ({ page }) => {
  // Code that does not parse fails the sandbox worker's load: reported as not compiling, exit 1.
  const broken = await trustAndRun(page, linkPath(jsHookScenario('does-not-compile', 'return (')));
  expect(await broken.getAttribute('data-exit-code')).toBe('1');
  await broken.click();
  expect(await page.getByTestId('hook-stderr').textContent()).toMatch(/^The hook's code does not compile: SyntaxError/);
});

test('in the sandbox, a returned object is JSON stdout and console.error goes to stderr', async ({ page }) => {
  const ok = await trustAndRun(page, linkPath(jsHookScenario('answers', 'console.error("careful"); return { additionalContext: input.hook_event_name }')));
  expect(await ok.getAttribute('data-exit-code')).toBe('0');
  await ok.click();
  expect(await page.getByTestId('hook-stdout').textContent()).toBe('{"additionalContext":"SessionStart"}');
  expect(await page.getByTestId('hook-stderr').textContent()).toBe('careful\n');
});

test('Stop ends a run whose JS hook is spinning, and the spinning worker with it', async ({ page }) => {
  await openAt(page, linkPath(jsHookScenario('busy-until-stopped', 'for (;;) {}', 600)));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  await expect.poll(() => page.workers().filter((w) => w.url().startsWith('blob:')).length).toBe(1);
  await page.getByTestId('btn-stop').click();
  await waitForStatus(page, 'aborted');
  await expect.poll(() => page.workers().filter((w) => w.url().startsWith('blob:')).length).toBe(0);
});
