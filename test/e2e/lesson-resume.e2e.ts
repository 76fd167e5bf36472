/**
 * A returning visitor (issue 24 §1): a lesson cut off by a reload comes back with its answers,
 * is not "finished", and is one click from stepping on; "Continue from here" never re-asks.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { holdAtQuestions, openApp, openTab, rows, runStatus, stepOnce, waitForStatus } from './app.ts';
import { courseLessons } from '../../src/scenarios/course.ts';

const [first] = courseLessons();
const question = first!.questions[0]!;

/** Lesson 1 to its question, answered, one step past it, saved; then a reload. */
async function answerStepAndReload(page: Page): Promise<number> {
  await holdAtQuestions(page);
  await openApp(page, `/#lesson=${first!.id}&step=${question.atSeq}`);
  await page.getByTestId('btn-reveal').waitFor({ timeout: 45_000 });
  await page.locator(`[data-testid="question-choice"][data-index="${question.answer}"]`).click();
  const count = await stepOnce(page);
  // The log is saved as it is pulled: wait until the session holds every event on screen.
  await openTab(page, 'sessions');
  await expect
    .poll(async () => Number(((await page.getByTestId('session-events').first().textContent()) ?? '').match(/\d+/)?.[0] ?? 0))
    .toBeGreaterThanOrEqual(count);
  await page.reload();
  await expect.poll(() => rows(page).count()).toBe(count);
  return count;
}

test('a lesson cut off by a reload: answers kept, not "finished", one click from stepping on', async ({ page }) => {
  const count = await answerStepAndReload(page);
  expect(await runStatus(page)).toBe('aborted');
  // Step is usable at once: its first move replays the cut run (the controller's replayCut hook).
  await expect.poll(() => page.getByTestId('btn-step').isEnabled()).toBe(true);
  // Not finished: the run was cut, not ended.
  expect(await page.getByTestId('lesson-end').count()).toBe(0);
  // The answered question is not asked again.
  expect(await page.getByTestId('btn-reveal').count()).toBe(0);

  const stepOn = page.getByTestId('btn-step-on');
  expect(await stepOn.textContent()).toContain(`event ${count}`);
  await stepOn.click();
  await waitForStatus(page, 'paused');
  expect(await rows(page).count()).toBe(count);
  expect(await page.getByTestId('btn-step').isEnabled()).toBe(true);
  expect(await page.getByTestId('btn-reveal').count()).toBe(0);
  await stepOnce(page);
});

test('after a reload, the toolbar Step replays the cut run to where it was and pulls one event more', async ({ page }) => {
  const count = await answerStepAndReload(page);
  expect(await runStatus(page)).toBe('aborted');
  // One click: the replay plays the same events again (answers kept), then the Step adds the next one.
  expect(await stepOnce(page)).toBe(count + 1);
  await waitForStatus(page, 'paused');
  expect(await page.getByTestId('btn-reveal').count()).toBe(0);
  expect(await page.getByTestId('btn-step-on').count()).toBe(0);
  await stepOnce(page);
});

test('"Continue from here" after a reload does not re-ask an answered question', async ({ page }) => {
  await answerStepAndReload(page);
  await page.getByTestId('btn-continue-here').click();
  await waitForStatus(page, 'done');
  expect(await page.getByTestId('btn-reveal').count()).toBe(0);
});
