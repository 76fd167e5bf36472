import type { Locator, Page } from 'playwright-core';
import { expect, expectNoConsoleErrors, firstVisitContext, inject, test, watchConsole } from './browser.ts';
import { openTab, rows } from './app.ts';

/**
 * Issue #11's layout: while the first visit's guide shows and while stepping, the loop diagram and
 * the event list are on screen at 1024 px (two columns) and at 1440×900 (three), the side panel's
 * tabs have room, and an explained event's explanation is more than a sliver.
 */
const sizes = [
  // At 1024 px the tabs go below the two columns; they must still not be a sliver.
  { width: 1024, height: 768, minTabs: 300 },
  { width: 1440, height: 900, minTabs: 400 },
];

/** The element's box lies inside the viewport (a pixel of rounding allowed) and is at least `minHeight` tall. */
async function expectOnScreen(page: Page, el: Locator, minHeight: number, what: string): Promise<void> {
  const box = await el.boundingBox();
  const view = page.viewportSize()!;
  expect(box, `${what} has a box`).not.toBeNull();
  const { x, y, width, height } = box!;
  expect({ what, top: y >= 0, left: x >= 0, right: x + width <= view.width + 1, bottom: y + height <= view.height + 1 }).toEqual({
    what,
    top: true,
    left: true,
    right: true,
    bottom: true,
  });
  expect(height, `${what} height`).toBeGreaterThanOrEqual(minHeight);
}

async function expectStepperInView(page: Page, when: string): Promise<void> {
  await expectOnScreen(page, page.getByTestId('loop-diagram'), 120, `loop diagram (${when})`);
  await expectOnScreen(page, page.getByTestId('event-list'), 100, `event list (${when})`);
}

for (const { width, height, minTabs } of sizes) {
  test(`${width}×${height}: with the guide showing and after stepping, the loop diagram and the event list stay in view and the tabs have room`, async ({ browser }) => {
    const context = await firstVisitContext(browser, { viewport: { width, height } });
    try {
      const page = await context.newPage();
      watchConsole(page);
      await page.goto(inject('baseUrl'));
      const guide = page.getByTestId('guided-start');
      await guide.waitFor();
      await expectStepperInView(page, 'guide showing');

      const tabs = page.locator('#tabpanel-scenario');
      expect((await tabs.boundingBox())!.height, 'scenario tab height').toBeGreaterThanOrEqual(minTabs);
      await openTab(page, 'course');
      expect((await page.locator('#tabpanel-course').boundingBox())!.height, 'course tab height').toBeGreaterThanOrEqual(minTabs);

      // Stepping with the guide still open: the rows arrive in the list, which stays in view.
      for (let n = 1; n <= 8; n++) {
        await page.getByTestId('btn-step').click();
        await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(n);
      }
      expect(await guide.count()).toBe(1);
      await expectStepperInView(page, 'stepping, guide showing');
      // The newest row shown (a row, or the fold of idle layers it belongs to) is scrolled into sight.
      const shownRows = page.getByTestId('event-list').locator('[data-testid="event-row"]:not([hidden]), [data-testid="event-fold"]');
      await expectOnScreen(page, shownRows.last(), 10, 'the newest event row');

      // Closing the guide gives the conversation its room back; the stepper stays in view.
      await page.getByTestId('btn-guide-skip').click();
      await expect.poll(() => guide.count()).toBe(0);
      await page.getByTestId('btn-step').click();
      await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(9);
      await expectStepperInView(page, 'stepping, guide closed');

      // An event explained: its explanation gets room on screen, and the list keeps a few rows in sight.
      await page.getByTestId('event-list').locator('[data-testid="event-row"]:not([hidden])').last().click();
      await page.getByTestId('btn-explain').click();
      const detail = page.getByTestId('explain-view').locator('..');
      await expectOnScreen(page, detail, 150, 'the explain view');
      await expectOnScreen(page, page.getByTestId('event-list'), 50, 'event list (an event explained)');
      await expectOnScreen(page, page.getByTestId('loop-diagram'), 120, 'loop diagram (an event explained)');
      expectNoConsoleErrors(page);
    } finally {
      await context.close();
    }
  });
}
