/**
 * Small seams of the course (issue 24 §1): "Run it with this change" runs the variant; a copied
 * link never shows under another scenario; descriptions render their code spans; the guided
 * start says which button stops at breakpoints.
 */
import { expect, firstVisitContext, inject, test } from './browser.ts';
import { openApp, rows, selectScenario, waitForStatus } from './app.ts';

test('"Run it with this change" loads the variant and runs it', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'refusal');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await page.getByTestId('btn-now-try').click();
  // One click: the variant (ordinary answer instead of a refusal) is loaded and runs to its end.
  await page.getByTestId('tab-scenario').click();
  await expect.poll(() => page.getByTestId('scenario-info').locator('h2').textContent()).toContain('now try');
  await expect.poll(() => rows(page).and(page.locator('[data-type="run.end"]')).count()).toBe(1);
  await waitForStatus(page, 'done');
  expect(await rows(page).and(page.locator('[data-type="run.end"]')).textContent()).toContain('completed');
});

test('a copied link goes away once another scenario is open; descriptions render code spans', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('tab-scenario').click();
  await page.getByTestId('btn-copy-link').click();
  await page.getByTestId('copy-link-result').waitFor();
  await selectScenario(page, 'ask-permission');
  await expect.poll(() => page.getByTestId('copy-link-result').count()).toBe(0);
  const desc = page.getByTestId('scenario-description');
  expect(await desc.textContent()).not.toContain('`');
  expect(await desc.locator('code').count()).toBeGreaterThan(0);
});

test('the guided start says Run stops at questions and Continue at breakpoints', async ({ browser }) => {
  const context = await firstVisitContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(inject('baseUrl'));
    const text = (await page.getByTestId('guided-start').textContent()) ?? '';
    expect(text).toMatch(/Continue \(C\) also stops at your breakpoints/);
    expect(text).not.toMatch(/Run \(R\)[^.;]*breakpoint/);
  } finally {
    await context.close();
  }
});
