/**
 * A lesson's notes and questions belong to the replay they were written for (issue 24 §1): a live
 * run of lesson 1 with a prompt of one's own is not held at lesson 1's question, shows none of its
 * event-numbered notes, and the lesson says why.
 */
import { expect, test } from './browser.ts';
import { holdAtQuestions, openApp, rows } from './app.ts';
import { goLive, runDemoConversation } from './live-helpers.ts';
import { courseLessons } from '../../src/scenarios/course.ts';

const [first] = courseLessons();

test('a live run on lesson 1 is not held at its question and shows none of its notes', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe(first!.id);
  await goLive(page);
  await runDemoConversation(page);
  expect(await rows(page).count()).toBeGreaterThanOrEqual(first!.questions[0]!.atSeq);
  expect(await page.getByTestId('lesson-question').count()).toBe(0);
  expect(await page.getByTestId('step-note').count()).toBe(0);
  expect(await page.getByTestId('lesson-offscript').textContent()).toContain('live model');
});
