import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { openApp, openTab, rows, rowTypes, selectScenario, stepOnce, waitForStatus } from './app.ts';

/** Run the scenario to its end and open the Context tab. */
async function runAndOpenContext(page: Page, scenario: string): Promise<void> {
  await openApp(page);
  await selectScenario(page, scenario);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await openTab(page, 'context');
  await page.getByTestId('context-bar').waitFor();
}

const num = async (page: Page, testid: string, attr: string) => Number(await page.getByTestId(testid).getAttribute(attr));

/** The calls (0-based) where the what-if says `layer` would fire. */
async function whatIfFiring(page: Page, layer: string): Promise<number[]> {
  return page
    .locator(`[data-testid="what-if-cell"][data-layer="${layer}"][data-fired="true"]`)
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-call'))));
}

test('the context bar follows the steps and draws the auto-compact line where the threshold is', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'auto-compact');
  await openTab(page, 'context');
  await expect.poll(() => page.getByTestId('context-bar').getAttribute('data-projected')).toBe('0');

  // Step until the first assembly: the bar fills in with it.
  for (let i = 0; i < 40 && !(await rowTypes(page)).includes('context.assembled'); i++) await stepOnce(page);
  const first = await num(page, 'context-bar', 'data-projected');
  expect(first).toBeGreaterThan(0);
  const row = rows(page).and(page.locator('[data-type="context.assembled"]')).first();
  await expect.poll(async () => (await row.textContent()) ?? '').toContain(`~${first} tok`);

  // Window 14,000 and a 70 % line (the scenario's settings): the line sits at 70 % of the track.
  const line = page.getByTestId('threshold-line');
  expect(await line.getAttribute('data-tokens')).toBe('9800');
  const track = page.getByTestId('context-bar').locator('.track');
  const t = (await track.boundingBox())!;
  const l = (await line.boundingBox())!;
  expect((l.x + l.width / 2 - t.x) / t.width).toBeCloseTo(0.7, 1);

  // Running on moves the bar.
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => num(page, 'context-bar', 'data-projected')).not.toBe(first);
});

test('auto-compact fires on the ladder; its rung opens what it summarised', async ({ page }) => {
  await runAndOpenContext(page, 'auto-compact');
  const picker = page.getByTestId('ladder-call');
  const options = await picker.locator('option').allTextContents();
  const fired = options.findIndex((o) => o.includes('fired'));
  expect(fired, `a call where a layer fired is listed: ${options.join(' | ')}`).toBeGreaterThan(0);
  await picker.selectOption({ index: fired });

  const rungs = page.getByTestId('layer-rung');
  expect(await rungs.evaluateAll((els) => els.map((el) => el.getAttribute('data-layer')))).toEqual(['budget', 'snip', 'microcompact', 'collapse', 'auto_compact']);
  const rung = page.locator('[data-testid="layer-rung"][data-layer="auto_compact"]');
  expect(await rung.getAttribute('data-fired')).toBe('true');
  expect(await page.locator('[data-testid="layer-rung"][data-layer="snip"]').getAttribute('data-fired')).toBe('false');
  await rung.click();
  const detail = page.getByTestId('layer-detail');
  await detail.waitFor();
  expect(await detail.getAttribute('data-layer')).toBe('auto_compact');
  await expect.poll(async () => (await detail.textContent()) ?? '').toContain('history summarised');
  expect(await detail.getByTestId('layer-change').count()).toBeGreaterThan(0);
});

test('collapse shows on the bar as live above projected, and on the cache panel as a break', async ({ page }) => {
  await runAndOpenContext(page, 'context-collapse');
  const projected = await num(page, 'context-bar', 'data-projected');
  const live = await num(page, 'context-bar', 'data-live');
  expect(live, 'the stored history keeps the truth; the model sees the projection').toBeGreaterThan(projected);
  // The latest call re-projects the collapsed ranges: its collapse rung fired and lists the ranges.
  const rung = page.locator('[data-testid="layer-rung"][data-layer="collapse"]');
  expect(await rung.getAttribute('data-fired')).toBe('true');
  await rung.click();
  expect(await page.getByTestId('layer-detail').locator('[data-testid="layer-change"][data-kind="range_collapsed"]').count()).toBeGreaterThan(0);

  await page.getByTestId('context-view-cache').click();
  const requests = await rows(page).and(page.locator('[data-type="model.request"]')).count();
  await expect.poll(() => page.getByTestId('cache-row').count()).toBe(requests);
  expect(await page.getByTestId('hit-rate').textContent()).toMatch(/^\d+%$/);
  expect(await page.getByTestId('hit-rate-sparkline').locator('circle').count()).toBe(requests);
  expect(await page.locator('[data-testid="cache-row"][data-broke="true"]').count()).toBeGreaterThan(0);
  const brk = page.getByTestId('cache-break');
  await brk.waitFor();
  expect(await brk.getAttribute('data-part')).toBe('messages');
  expect(await brk.textContent()).toContain('changed');
});

test('what-if: a lower threshold moves where auto-compact would fire; switching it off removes it', async ({ page }) => {
  await runAndOpenContext(page, 'auto-compact');
  await page.getByTestId('context-view-what-if').click();
  await page.getByTestId('what-if-summary').waitFor();
  await expect.poll(() => page.getByTestId('what-if-cell').count()).toBeGreaterThan(0);

  // Under the recorded settings the replay fires where the run did.
  const recorded = await page
    .locator('[data-testid="what-if-cell"][data-layer="auto_compact"][data-recorded="true"]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-call'))));
  expect(recorded.length).toBe(1);
  await expect.poll(() => whatIfFiring(page, 'auto_compact')).toEqual(recorded);

  await page.getByTestId('what-if-threshold').fill('0.4');
  await expect.poll(async () => (await page.getByTestId('what-if-threshold-value').textContent())?.trim()).toBe('40%');
  await expect.poll(async () => (await whatIfFiring(page, 'auto_compact'))[0] ?? Infinity).toBeLessThan(recorded[0]!);

  await page.getByTestId('what-if-layer-auto_compact').uncheck();
  await expect.poll(() => whatIfFiring(page, 'auto_compact')).toEqual([]);
  expect(await page.getByTestId('what-if-summary').getAttribute('data-compactions')).toBe('0');

  await page.getByTestId('what-if-reset').click();
  await expect.poll(() => whatIfFiring(page, 'auto_compact')).toEqual(recorded);
});
