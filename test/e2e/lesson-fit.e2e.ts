/**
 * A lesson's notes and questions belong to the replay they were written for (issue 24 §1): a live
 * run of lesson 1 with a prompt of one's own is not held at lesson 1's question, shows none of its
 * event-numbered notes, and the lesson says why.
 */
import { expect, test } from './browser.ts';
import { E2E_API_KEY } from './constants.ts';
import { holdAtQuestions, openApp, rows, waitForStatus } from './app.ts';
import { fakeServer, setMode } from './live-helpers.ts';
import { courseLessons } from '../../src/scenarios/course.ts';

const [first] = courseLessons();

test('a live run on lesson 1 is not held at its question and shows none of its notes', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe(first!.id);
  await setMode(page, 'anthropic');
  await page.getByTestId('base-url').fill(fakeServer());
  await page.getByTestId('api-key').fill(E2E_API_KEY);
  await page.getByTestId('prompt-input').fill('Say hello and leave a greeting file.');
  await page.getByTestId('btn-send').click();
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  await page.getByTestId('btn-allow-once').click();
  await waitForStatus(page, 'done');
  expect(await rows(page).count()).toBeGreaterThanOrEqual(first!.questions[0]!.atSeq);
  expect(await page.getByTestId('lesson-question').count()).toBe(0);
  expect(await page.getByTestId('step-note').count()).toBe(0);
  expect(await page.getByTestId('lesson-offscript').textContent()).toContain('live model');
});
