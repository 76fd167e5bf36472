/**
 * The header at a narrow desktop (1024 px): two rows at most — what is open (brand, scenario, run
 * status, where the view is, theme) above, what moves it (run, stepper and grain controls) below —
 * nothing cut off, and every enabled control reachable with Tab in the order it is shown. And a
 * lesson strip with no notes yet takes its minimum, leaving the room to the event list.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { openApp, selectScenario, stepOnce } from './app.ts';

/** Rows of the header's controls: boxes whose vertical extents overlap form one row. */
async function headerRows(page: Page): Promise<number> {
  return page.locator('header').first().evaluate((header) => {
    const boxes = [...header.querySelectorAll<HTMLElement>('button, select, [data-testid="run-status"], [data-testid="cursor-status"], .lead')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => el.getBoundingClientRect())
      .sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const b of boxes) {
      if (b.top >= bottom) rows++;
      bottom = Math.max(bottom, b.bottom);
    }
    return rows;
  });
}

for (const width of [1024, 1280, 1440]) {
  test(`at ${width} px the header is two rows, nothing cut off, every control reachable with Tab`, async ({ page }) => {
    await page.setViewportSize({ width, height: 768 });
    await openApp(page);
    await selectScenario(page, 'fix-a-bug');
    await stepOnce(page);
    await stepOnce(page);
    await page.getByTestId('btn-step-back').click();
    await expect.poll(() => page.getByTestId('cursor-status').textContent()).toContain('viewing event 1 of 2');
    expect(await headerRows(page)).toBeLessThanOrEqual(2);
    // Nothing cut off: every control lies inside the viewport.
    const outside = await page.locator('header').first().evaluate((header) =>
      [...header.querySelectorAll<HTMLElement>('button, select')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.left < 0 || r.right > window.innerWidth || r.width === 0;
        })
        .map((el) => el.dataset.testid ?? el.textContent),
    );
    expect(outside).toEqual([]);
    // Tab reaches every enabled header control, in the order they are shown.
    const enabled = await page.locator('header').first().evaluate((header) =>
      [...header.querySelectorAll<HTMLButtonElement | HTMLSelectElement>('button, select')].filter((el) => !el.disabled).map((el) => el.dataset.testid ?? el.textContent?.trim() ?? ''),
    );
    // The brand has no control: the workspace switch is the header's first stop.
    await page.getByTestId('ws-learn').focus();
    const reached: string[] = ['ws-learn'];
    for (let i = 0; i < enabled.length + 5 && reached.length < enabled.length; i++) {
      await page.keyboard.press('Tab');
      const inHeader = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.closest('header') ? (el.dataset.testid ?? el.textContent?.trim() ?? '') : null;
      });
      if (inHeader !== null) reached.push(inHeader);
    }
    expect(reached).toEqual(enabled);
  });
}

test('at 1024x768 a lesson strip with no notes yet takes only its 120 px minimum', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await stepOnce(page);
  const strip = page.getByTestId('lesson-strip');
  await strip.getByText('Notes appear here as you reach their steps.').waitFor();
  const height = await strip.evaluate((el) => el.getBoundingClientRect().height);
  expect(height).toBeLessThanOrEqual(121);
});
