/**
 * What a new learner does with the stepper (issue #11 §4), in the browser: step at the grain of a
 * request, a tool call, a decision and a turn (buttons and keys); open a fold of idle layer rows;
 * Escape never stops a paused run (X does, keeping its events); the "Fork here" glyph renders.
 */
import { expect, test } from './browser.ts';
import { blurInputs, openApp, rows, selectScenario, waitForStatus } from './app.ts';

/** The type of the newest event row. */
const lastType = (page: Parameters<typeof rows>[0]) => rows(page).last().getAttribute('data-type');

test('stepping grain: each button and key runs to the next event of its kind and pauses there', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  const stops = [
    ['tool', null, 'tool.proposed'],
    ['decision', 'd', 'permission.decision'],
    ['turn', 'e', 'transition'],
    ['request', 'm', 'model.request'],
    ['tool', 't', 'tool.proposed'],
  ] as const;
  let count = 0;
  for (const [grain, key, type] of stops) {
    const before = count;
    if (key) {
      await blurInputs(page);
      await page.keyboard.press(key);
    } else {
      await page.getByTestId(`btn-grain-${grain}`).click();
    }
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
    await waitForStatus(page, 'paused');
    count = await rows(page).count();
    // Stopped right after the first event of its kind: none earlier in this stretch.
    expect(await lastType(page), `${grain} (${key ?? 'button'})`).toBe(type);
    const stretch = await rows(page).evaluateAll((els, from) => els.slice(from, -1).map((el) => el.getAttribute('data-type')), before);
    expect(stretch).not.toContain(type);
  }
});

test('idle layer rows fold into one row that expands and folds again', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-grain-request').click();
  await waitForStatus(page, 'paused');
  const fold = page.getByTestId('event-fold').first();
  await fold.waitFor();
  const count = Number((await fold.textContent())!.match(/(\d+) idle layers/)![1]);
  expect(count).toBeGreaterThanOrEqual(2);
  const layers = rows(page).and(page.locator('[data-type="compaction.layer"]'));
  const shown = () => layers.evaluateAll((els) => els.filter((el) => !(el as HTMLElement).hidden).length);
  expect(await shown()).toBe(0);
  expect(await fold.getAttribute('data-open')).toBe('false');
  await fold.click();
  await expect.poll(shown).toBe(count);
  expect(await fold.getAttribute('data-open')).toBe('true');
  await fold.click();
  await expect.poll(shown).toBe(0);
});

test('Escape does not stop a paused run, not even from the prompt box; X stops it and its events stay', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-grain-tool').click();
  await waitForStatus(page, 'paused');
  const before = await rows(page).count();
  await blurInputs(page);
  await page.keyboard.press('Escape');
  // Still paused, nothing pulled or lost: the next Step goes on from there.
  expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('paused');
  await page.getByTestId('btn-step').click();
  await expect.poll(() => rows(page).count()).toBe(before + 1);
  // Nor does Escape in the prompt box (typing a steering message): it leaves the box, and X stops.
  const input = page.getByTestId('prompt-input');
  await input.click();
  await input.press('Escape');
  expect(await input.evaluate((el) => el === document.activeElement)).toBe(false);
  expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('paused');
  expect(await rows(page).count()).toBe(before + 1);
  await page.keyboard.press('x');
  await waitForStatus(page, 'aborted');
  expect(await rows(page).count()).toBeGreaterThan(before + 1);
  expect(await lastType(page)).toBe('run.end');
});

test('the "Fork here" glyph renders: a drawn icon, not an empty box', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-grain-tool').click();
  await waitForStatus(page, 'paused');
  await rows(page).nth(2).click();
  const fork = page.getByTestId('btn-fork');
  await fork.waitFor();
  const icon = fork.locator('svg');
  expect(await icon.count()).toBe(1);
  const box = (await icon.boundingBox())!;
  expect(box.width).toBeGreaterThan(8);
  expect(box.height).toBeGreaterThan(8);
  // Its path draws something (a font glyph that is missing would show as tofu instead).
  const drawn = await icon.evaluate((svg) => [...svg.querySelectorAll('path')].reduce((n, p) => n + p.getTotalLength(), 0));
  expect(drawn).toBeGreaterThan(10);
});
