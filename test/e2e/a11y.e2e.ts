/**
 * axe-core on every workspace and every side-panel tab in it, with a run on screen and an event explained, in both themes:
 * no serious or critical violations (colour contrast included).
 */
import { seriousViolations } from './axe.ts';
import { expect, firstVisitContext, inject, test } from './browser.ts';
import { openApp, openTab, rows, waitForStatus } from './app.ts';

// Every tab of every workspace (Learn, Inspect, Build, Team): openTab switches the workspace too.
const TABS = ['scenario', 'lesson', 'stepper', 'course', 'context', 'hooks', 'memory', 'sessions', 'skills', 'workbench', 'tools', 'mcp', 'settings', 'team', 'todos', 'tasks', 'merge'];

for (const scheme of ['light', 'dark'] as const) {
  // Seventeen full-page axe scans (Build's five with the terminal on screen): 86–157 s on a 2-core machine at load 20.
  test(`axe-core: no serious or critical violations on any panel (${scheme})`, { timeout: 300_000 }, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    expect(await seriousViolations(page), 'first load').toEqual([]);
    await page.getByTestId('scenario-picker').selectOption('deny-beats-allow');
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    await rows(page).and(page.locator('[data-type="permission.decision"]')).nth(1).click();
    await page.getByTestId('btn-explain').click();
    await page.getByTestId('stage').first().click();
    for (const tab of TABS) {
      await openTab(page, tab);
      expect(await seriousViolations(page), `tab ${tab}`).toEqual([]);
    }
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe-core: the first visit's guided start, at 1024 px and 1440 px (${scheme})`, async ({ browser }) => {
    const context = await firstVisitContext(browser, { viewport: { width: 1024, height: 768 }, colorScheme: scheme });
    try {
      const page = await context.newPage();
      await page.goto(inject('baseUrl'));
      await page.getByTestId('guided-start').waitFor();
      expect(await seriousViolations(page), 'guide at 1024 px').toEqual([]);
      await page.setViewportSize({ width: 1440, height: 900 });
      expect(await seriousViolations(page), 'guide at 1440 px').toEqual([]);
    } finally {
      await context.close();
    }
  });
}

test('a long run: every tool result and input that scrolls takes keyboard focus, one that fits stays out of the tab order', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('scenario-picker').selectOption('node-project-bug');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  // The conversation holds long results (a test run's output, a file read) capped in height.
  expect(await seriousViolations(page, '[data-testid="conversation"]')).toEqual([]);
  const boxes = await page.getByTestId('conversation').locator('pre.result, pre.input').evaluateAll((els) =>
    els.map((el) => ({ scrolls: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1, focusable: el.getAttribute('tabindex') === '0' })),
  );
  expect(boxes.filter((b) => b.scrolls).length, 'the run has results that scroll').toBeGreaterThan(0);
  expect(boxes.filter((b) => !b.scrolls).length, 'and results that fit').toBeGreaterThan(0);
  expect(boxes.every((b) => b.focusable === b.scrolls)).toBe(true);
  // Tab reaches a long result and the keyboard scrolls it.
  const long = page.getByTestId('conversation').locator('pre.result[tabindex="0"]').first();
  await long.focus();
  const before = await long.evaluate((el) => el.scrollTop);
  await page.keyboard.press('PageDown');
  await expect.poll(() => long.evaluate((el) => el.scrollTop)).toBeGreaterThan(before);
});

test('the permission dialog, open over a waiting run, has no serious or critical violations in either theme', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('scenario-picker').selectOption('ask-permission');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('permission-dialog').waitFor();
  // The page follows the system's scheme while the person has not picked one: both themes, dialog open.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe(scheme);
    expect(await seriousViolations(page), scheme).toEqual([]);
  }
});
