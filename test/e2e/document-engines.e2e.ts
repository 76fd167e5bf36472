/**
 * RE2, yaml and zod load on demand (`src/harness/util/engines.ts`; zod with every chunk that validates:
 * the document layer `ui/state/documents.ts`, the stores' record checks, the harness): the first
 * screen does not carry them, and many of their users are synchronous. Here the three chunks are held
 * back by the server while a person does the first things the page offers — Step, the panels, Copy
 * link — so anything that reached for them before they arrived would throw (`EngineNotLoadedError`,
 * `DocumentsNotLoadedError`, a page error this suite fails on) or hang the first screen. The page
 * paints and offers Step without them; each action waits instead, saying so, and completes once they
 * arrive. And a reload that restores a session whose workbench (a scenario) holds a YAML tier pattern
 * waits for them before it reads it.
 */
import { expect, expectNoConsoleErrors, test } from './browser.ts';
import type { Page } from 'playwright-core';
import { openApp, openSettings, rows, waitForStatus } from './app.ts';

const ENGINE_CHUNK = /\/assets\/(re2js|yaml|zod)-[\w-]+\.js$/;

/** Holds the three chunks back until the returned `release` is called; `held` lists what was asked for. */
async function holdEngines(page: Page): Promise<{ release: () => void; held: string[] }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const held: string[] = [];
  await page.route(ENGINE_CHUNK, async (route) => {
    held.push(new URL(route.request().url()).pathname);
    await released;
    await route.continue();
  });
  return { release, held };
}

test('before RE2, yaml and zod have arrived, the first screen is usable; Step, the panels and Copy link wait for them, and each completes when they do', async ({ page }) => {
  const { release, held } = await holdEngines(page);
  await openApp(page);
  await expect.poll(() => page.getByTestId('btn-step').isEnabled()).toBe(true);
  // The page asked for all three at once (a first visit prefetches them with the harness), and its
  // first screen is there without them: the default scenario, and the session list's place.
  await expect.poll(() => held.map((p) => p.replace(/^\/assets\/([a-z0-9]+)-.*$/, '$1')).sort()).toEqual(['re2js', 'yaml', 'zod']);
  await expect.poll(() => page.getByTestId('scenario-picker').isVisible()).toBe(true);

  // Step: the header says what it waits for; nothing has run.
  await page.getByTestId('btn-step').click();
  await expect.poll(() => page.getByTestId('run-status').locator('..').textContent()).toContain('Loading the harness…');
  expect(await rows(page).count()).toBe(0);

  // Copy link (its link is the scenario, validated): waits too.
  await page.getByTestId('btn-copy-link').click();
  expect(await page.getByTestId('copy-link-result').count()).toBe(0);

  // A panel that reads settings as it renders (Settings: the settings editor) shows "Loading…".
  await page.getByTestId('ws-build').click();
  await page.getByTestId('tab-settings').click();
  await page.locator('#tabpanel-settings [data-testid="panel-loading"]').waitFor();

  release();
  await expect.poll(() => rows(page).count()).toBe(1);
  await expect.poll(() => page.locator('#tabpanel-settings [data-testid="panel-loading"]').count()).toBe(0);
  await expect.poll(() => page.locator('#tabpanel-settings').getByTestId('settings-editor').count()).toBeGreaterThan(0);
  await page.getByTestId('ws-learn').click();
  await page.getByTestId('copy-link-result').waitFor();
  expectNoConsoleErrors(page);
});

test('a reload restores a session whose settings were edited (a YAML tier: its workbench is validated with RE2): the restore waits for the engines, then brings it back', async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  await page.getByTestId('settings-editor').fill('{\n  "always_deny": [{ "pattern": "rm\\\\s+-rf", "reason": "no recursive deletes" }]\n}');
  await expect.poll(() => page.getByTestId('settings-error').count()).toBe(0);
  await page.getByTestId('btn-apply-settings').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  const { release } = await holdEngines(page);
  await page.reload();
  // (The session store's record checks are zod's too: the restore cannot even list the session without them.)
  await page.getByTestId('scenario-picker').waitFor();
  // Restoring (the picker waits for it), and it cannot finish without them.
  await expect.poll(() => page.getByTestId('scenario-picker').isDisabled()).toBe(true);
  expect(await page.getByTestId('session-notice').count()).toBe(0);
  release();
  const notice = page.getByTestId('session-notice');
  await notice.waitFor();
  await expect.poll(() => notice.getByTestId('session-workbench').textContent()).toContain('The workbench came back as it was: the settings');
  await openSettings(page);
  await expect.poll(() => page.getByTestId('settings-editor').inputValue()).toContain('no recursive deletes');
  expectNoConsoleErrors(page);
});
