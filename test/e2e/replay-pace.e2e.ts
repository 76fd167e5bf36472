/**
 * Settings → Scripted replies: streamed (a visitor's default) or instant, saved with the model
 * preferences and used by the next run. (The e2e fixture itself runs every other test instant.)
 */
import { expect, test } from './browser.ts';
import { openApp, openSettings, rowTypes, selectScenario, waitForStatus } from './app.ts';

test('a visitor’s scripted replies stream; instant is saved, survives a reload, runs, and is off in live mode', async ({ page }) => {
  // A visitor's first page: no saved preferences (the fixture's instant pace removed again).
  await page.addInitScript(() => {
    if (window === window.top && !sessionStorage.getItem('prefsCleared')) {
      localStorage.removeItem('hp.modelPrefs');
      sessionStorage.setItem('prefsCleared', '1');
    }
  });
  await openApp(page);
  await openSettings(page);
  const pace = page.getByTestId('replay-pace');
  expect(await pace.inputValue()).toBe('streamed');

  await pace.selectOption('instant');
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('hp.modelPrefs') ?? '{}').replayPace)).toBe('instant');
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openSettings(page);
  expect(await page.getByTestId('replay-pace').inputValue()).toBe('instant');

  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const types = await rowTypes(page);
  expect(types.at(-1)).toBe('run.end');
  expect(types.filter((t) => t === 'model.delta').length).toBeGreaterThan(3);

  // The pace is about replays: with a live model the choice is not offered.
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  expect(await page.getByTestId('replay-pace').isDisabled()).toBe(true);
});
