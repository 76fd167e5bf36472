/**
 * Author a lesson, open its link in a fresh browser context (nothing stored carried over), and
 * record → replay → take over with the fake Anthropic server.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { E2E_API_KEY } from './constants.ts';
import { openApp, openTab, runStatus, selectScenario, stepOnce, waitForStatus } from './app.ts';
import { continueToNext } from './stepper-app.ts';
import { answerTrustIfAsked, openRecordingWithNoKey, recordDemoRun, setMode } from './live-helpers.ts';

const position = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-position'));

test('a lesson link opens in a fresh context: notes beside the steps, the breakpoint, the question before its answer', async ({ page, browser }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openTab(page, 'lesson');
  await page.getByTestId('author-toggle').check();
  for (let i = 0; i < 3; i++) await stepOnce(page);
  await page.getByTestId('note-input').fill('**Watch** the `run.start` event: the loop has begun.');
  await page.getByTestId('btn-add-note').click();
  await page.getByTestId('authored-note').filter({ hasText: 'Watch' }).waitFor();
  await stepOnce(page);
  await stepOnce(page);
  await page.getByTestId('question-input').fill('What does the loop do next?');
  await page.getByTestId('question-choices').fill('It calls the model\nThe run ends');
  await page.getByTestId('question-answer-select').selectOption('0');
  await page.getByTestId('question-explanation-input').fill('Every turn starts with a model request.');
  await page.getByTestId('btn-add-question').click();
  await page.getByTestId('authored-question').filter({ hasText: 'What does the loop' }).waitFor();
  await openTab(page, 'stepper');
  await page.getByTestId('bp-event-tool.proposed').check();
  await openTab(page, 'lesson');
  const sizeLabel = await page.getByTestId('btn-copy-lesson-link').textContent();
  expect(sizeLabel).toMatch(/\d+(\.\d)? (KB|B)/);
  await page.getByTestId('btn-copy-lesson-link').click();
  const url = await page.getByTestId('lesson-link-url').inputValue();
  expect(url).toContain('#s=');

  // A fresh context: no localStorage, no IndexedDB from the author's.
  const learnerContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  // Requests to other hosts fail at the browser's dead proxy (CHROMIUM_ARGS); count any that try.
  learnerContext.on('request', (req) => {
    if (!/^(http:\/\/(127\.0\.0\.1|localhost)|data:|blob:)/.test(req.url())) outside.push(req.url());
  });
  try {
    const learner = await learnerContext.newPage();
    await learner.goto(url);
    await answerTrustIfAsked(learner);
    await learner.getByTestId('lesson-strip').waitFor();
    expect(await learner.getByTestId('step-note').count()).toBe(0);
    // The breakpoint came with the link.
    await openTab(learner, 'stepper');
    expect(await learner.getByTestId('bp-event-tool.proposed').isChecked()).toBe(true);

    for (let i = 0; i < 3; i++) await stepOnce(learner);
    const note = learner.getByTestId('step-note');
    await note.waitFor();
    expect(await note.getAttribute('data-seq')).toBe('3');
    // Rendered as markdown (bold, code), from data — never as raw HTML.
    expect(await note.locator('strong').textContent()).toBe('Watch');
    expect(await note.locator('code').textContent()).toBe('run.start');

    await stepOnce(learner);
    // The fifth step reaches the question: Step stays disabled after it, so wait for the row itself.
    await learner.getByTestId('btn-step').click();
    await expect.poll(() => learner.getByTestId('event-list').getByTestId('event-row').count()).toBe(5);
    const question = learner.getByTestId('lesson-question');
    await question.waitFor();
    expect(await question.textContent()).toContain('What does the loop do next?');
    expect(await learner.getByTestId('question-choice').count()).toBe(2);
    expect(await learner.getByTestId('question-answer').count()).toBe(0);
    // The question holds the learner until it is answered or skipped.
    expect(await learner.getByTestId('btn-step').isEnabled()).toBe(false);
    await learner.getByTestId('question-choice').nth(1).click();
    const answer = learner.getByTestId('question-answer');
    await answer.waitFor();
    expect(await answer.textContent()).toContain('It calls the model');
    expect(await answer.textContent()).toContain('Every turn starts with a model request.');

    await continueToNext(learner);
    expect(await learner.getByTestId('breakpoint-hit').textContent()).toContain('tool.proposed');
    expect(await position(learner)).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  } finally {
    await learnerContext.close();
  }
});

test('record a live run, replay it with no key, take over mid-way with the live model', async ({ page }) => {
  const link = await recordDemoRun(page);
  expect(link).toContain('#s=');
  expect(link).not.toContain(E2E_API_KEY);

  // Replay with no key at all.
  await openRecordingWithNoKey(page, link);
  await openTab(page, 'stepper');
  expect(await page.getByTestId('btn-take-over').isEnabled()).toBe(false);
  await page.getByTestId('bp-event-model.request').check();
  await continueToNext(page);
  await continueToNext(page);
  // The second request: the replayed bash call has its result.
  expect(await page.getByTestId('breakpoint-hit').textContent()).toContain('model.request');
  const results = await page.getByTestId('conversation').getByTestId('tool-result').allTextContents();
  expect(results.join('\n')).toContain('hello from the fake server');
  expect(await page.locator('[data-testid="event-row"][data-type="run.start"]').count()).toBe(1);

  // Take over with the key, against the fake server.
  await setMode(page, 'anthropic');
  await page.getByTestId('api-key').fill(E2E_API_KEY);
  await setMode(page, 'scripted');
  await openTab(page, 'stepper');
  await page.getByTestId('bp-event-model.request').uncheck();
  await expect.poll(() => page.getByTestId('btn-take-over').isEnabled()).toBe(true);
  await page.getByTestId('btn-take-over').click();
  await waitForStatus(page, 'done');
  expect(await page.getByTestId('fork-note').textContent()).toContain('Taken over');
  // A second run, on the live client: its run.start names it, and the live text arrived.
  const starts = page.locator('[data-testid="event-row"][data-type="run.start"]');
  expect(await starts.count()).toBe(2);
  await starts.last().click();
  expect(await page.getByTestId('event-json').textContent()).toMatch(/"modelClient": "(?!scripted)/);
  const last = await page.getByTestId('conversation').locator('[data-testid="msg"][data-role="assistant"]').last().textContent();
  expect(last).toContain('greeting.txt now says');
  expect(await runStatus(page)).toBe('done');
});
