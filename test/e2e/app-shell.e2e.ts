import { inject } from 'vitest';
import { allowConsoleErrors, expect, expectNoConsoleErrors, test } from './browser.ts';
import { openApp, openTab, rows, runStatus, selectScenario, stepOnce, waitForStatus } from './app.ts';

test('the app loads with no console errors and shows the empty state', async ({ page }) => {
  await openApp(page);
  expect(await page.title()).toMatch(/harness playground/i);
  expect(await runStatus(page)).toBe('idle');
  await page.getByTestId('event-list').waitFor();
  expect(await rows(page).count()).toBe(0);
  // The picker offers the built-in scenarios.
  const options = await page
    .getByTestId('scenario-picker')
    .locator('option')
    .evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
  expect(options).toEqual(expect.arrayContaining(['parallel-exploration', 'fix-a-bug', 'max-tokens-recovery']));
  expectNoConsoleErrors(page);
});

test('the HTML paints a loading shell, in the system’s colour scheme, until the app mounts in its place', async ({ page }) => {
  // Held before the entry runs (its script refused), the page shows the shell and says it is loading.
  allowConsoleErrors(page, /Failed to load|ERR_FAILED|net::/);
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort());
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${inject('baseUrl')}/`);
  const shell = page.getByTestId('boot-shell');
  await shell.waitFor();
  expect(await shell.getByRole('status').innerText()).toContain('Loading the playground…');
  expect(await shell.getAttribute('aria-busy')).toBe('true');
  const background = () => shell.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background()).toBe('rgb(246, 247, 249)'); // theme.css --bg, light
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(17, 20, 25)'); // --bg, dark
  // An entry that never arrives: after its delay (20 s; finished here at once) the shell says what to do.
  const hint = shell.getByTestId('boot-slow');
  expect(await page.evaluate(() => document.getAnimations().map((a) => [(a as CSSAnimation).animationName, a.effect?.getTiming().delay]))).toEqual([['boot-reveal', 20_000]]);
  await page.evaluate(() => document.getAnimations().forEach((a) => a.finish()));
  expect(await hint.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  expect(await hint.innerText()).toContain('reload the page');
  // Let the entry run: the app takes the shell's place (one header, no shell left behind).
  await page.unroute(/\/assets\/index-[^/]*\.js$/);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  expect(await page.getByTestId('boot-shell').count()).toBe(0);
  expect(await page.getByRole('heading', { name: 'Harness Playground' }).count()).toBe(1);
});

test('the theme toggle switches <html data-theme> and the choice survives a reload', async ({ page }) => {
  await openApp(page);
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? '');
  const first = await theme();
  expect(['light', 'dark']).toContain(first);
  const other = first === 'light' ? 'dark' : 'light';

  await page.getByTestId('theme-toggle').click();
  await expect.poll(theme).toBe(other);

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  expect(await theme()).toBe(other);

  await page.getByTestId('theme-toggle').click();
  await expect.poll(theme).toBe(first);
});

test('a reload in the middle of a run does not crash the app', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  for (let i = 0; i < 3; i++) await stepOnce(page);
  await waitForStatus(page, 'paused', 'running');

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  // After the reload the app is usable again: it can start (or continue) a run and finish it.
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await rows(page).count()).toBeGreaterThan(3);
});

test('hidden tabs the first screen would only mount load when first opened, then stay mounted with their state', async ({ page }) => {
  await openApp(page);
  // Nothing of them is in the page until their tab opens (the first screen does not pay for them).
  for (const id of ['stepper', 'hooks', 'sessions', 'todos']) expect(await page.locator(`#tabpanel-${id} *`).count(), id).toBe(0);
  await openTab(page, 'stepper');
  const breakpoints = page.locator('#tabpanel-stepper [data-testid="breakpoints"]');
  await breakpoints.waitFor();
  // Mark the mounted panel, go elsewhere and back: the same element, not a fresh mount.
  await breakpoints.evaluate((el) => ((el as HTMLElement & { seen?: boolean }).seen = true));
  await openTab(page, 'hooks');
  await page.locator('#tabpanel-hooks [data-testid="hooks-timeline"]').waitFor();
  await openTab(page, 'stepper');
  expect(await breakpoints.evaluate((el) => (el as HTMLElement & { seen?: boolean }).seen === true)).toBe(true);
  expectNoConsoleErrors(page);
});
