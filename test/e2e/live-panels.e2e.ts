/**
 * What a learner sees across a session (issue 11 §4): the memory panel shows a memory the run
 * saved without being reopened, and event numbers count the whole session — a follow-up run's
 * events go on from the first run's, while each event keeps its own run's seq.
 */
import { expect, test } from './browser.ts';
import { openApp, openTab, rows, selectScenario, waitForStatus } from './app.ts';

test('the memory panel, open during the run, shows the memory the run saved', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'memory-claude-md');
  await openTab(page, 'memory');
  await page.getByTestId('memory-panel').waitFor();
  await expect.poll(() => page.getByTestId('memory-empty').isVisible()).toBe(true);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await rows(page).and(page.locator('[data-type="memory.extracted"]')).count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('memory-row').getByTestId('memory-content').allTextContents()).toContainEqual(expect.stringMatching(/Tuesday/));
});

test('event numbers go on across a follow-up run instead of restarting', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'lesson-follow-ups');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const first = await rows(page).count();
  // The lesson pre-fills its next prompt once the run has ended.
  await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toContain('three ideas');
  await page.getByTestId('btn-send').click();
  await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(first);
  await waitForStatus(page, 'done');
  const numbers = await rows(page).evaluateAll((els) => els.map((el) => Number(el.querySelector('.seq')?.textContent)));
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  const starts = await rows(page).evaluateAll((els) => els.filter((el) => el.getAttribute('data-type') === 'run.start').map((el) => Number(el.querySelector('.seq')?.textContent)));
  expect(starts).toEqual([1, first + 1]);
  // Each run numbers its own events from 1 (data-seq): the screen does not.
  const seqs = await rows(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))));
  expect(seqs[first]).toBeLessThan(seqs[first - 1]!);
});
