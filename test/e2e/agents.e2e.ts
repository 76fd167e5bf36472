/**
 * The agents layer in Chromium: the task board live mid-run and at the end, the skills panel
 * (descriptions against loaded bodies, with token counts), and steering — a message typed while
 * the run works is queued and delivered at the next safe point; Esc in the prompt box still stops.
 */
import { expect, test, type Page } from './browser.ts';
import { holdAtQuestions, openApp, openTab, rowTypes, selectScenario, stepOnce, waitForStatus } from './app.ts';
import { linkPath, openAt } from './safety-fixtures.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';

const cards = (page: Page, status: string) => page.getByTestId('task-board').locator(`[data-testid="task-column"][data-status="${status}"] [data-testid="task-card"]`);
const cardIds = (page: Page, status: string) => cards(page, status).evaluateAll((els) => els.map((e) => e.getAttribute('data-task')));

test('the task board follows the graph as events arrive: blocked tasks say what blocks them', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'task-graph');
  await openTab(page, 'tasks');
  await page.getByTestId('task-board').getByText('No tasks yet').waitFor();

  // Run stops at the lesson's question, right after the refused attempt to start #3.
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  await expect.poll(() => cardIds(page, 'pending')).toEqual(['1', '2', '3']);
  expect(await cards(page, 'in_progress').count()).toBe(0);
  const blocked = page.getByTestId('task-board').locator('[data-testid="task-card"][data-blocked="yes"]');
  expect(await blocked.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-task')}: ${e.querySelector('[data-testid="task-blocked-by"]')?.textContent}`))).toEqual([
    '2: blocked by #1',
    '3: blocked by #2',
  ]);
  expect(await page.getByTestId('task-summary').textContent()).toContain('can start now: #1');
  // Each card shows its priority (Claude Code's high / medium / low; none given = medium).
  expect(await page.getByTestId('task-board').locator('[data-testid="task-card"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-task')} ${e.querySelector('[data-testid="task-priority"]')?.textContent}`))).toEqual([
    '1 medium',
    '2 high',
    '3 low',
  ]);

  await page.getByTestId('question-choice').nth(1).click();
  await page.getByTestId('question-answer').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => cardIds(page, 'completed')).toEqual(['1', '2', '3']);
  expect(await cards(page, 'pending').count()).toBe(0);
  await page.screenshot({ path: 'test-results/agents-task-board.png' });
});

test('the skills panel shows what the model sees (descriptions) against what it loaded (the body)', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'skill-on-demand');
  await openTab(page, 'skills');
  const panel = page.getByTestId('skills-panel');
  await panel.getByText('No skills in this run yet').waitFor();
  // Run stops at the lesson's question, just after the skill's body came back.
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  await panel.locator('[data-testid="skill-row"][data-skill="code-review"][data-loaded="yes"]').waitFor();
  await page.getByTestId('question-choice').first().click();
  await page.getByTestId('question-answer').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const rows = panel.getByTestId('skill-row');
  await expect.poll(() => rows.count()).toBe(6);
  expect(await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-skill')}:${e.getAttribute('data-loaded')}`))).toEqual([
    'cart-conventions:no',
    'code-review:yes',
    'debugging-checklist:no',
    'git-commit-message:no',
    'refactor-safely:no',
    'writing-tests:no',
  ]);
  const review = panel.locator('[data-testid="skill-row"][data-skill="code-review"]');
  const desc = Number((await review.getByTestId('skill-desc-tokens').textContent())!.replace(/\D/g, ''));
  const body = Number((await review.getByTestId('skill-body-tokens').textContent())!.replace(/\D/g, ''));
  expect(desc).toBeGreaterThan(0);
  expect(body).toBeGreaterThan(desc * 4);
  await review.getByRole('button', { name: 'Show the body' }).click();
  expect(await review.getByTestId('skill-body').textContent()).toContain('Report format');
  expect(await panel.getByTestId('skills-totals').textContent()).toMatch(/tokens on every call for 6 descriptions/);
  await page.screenshot({ path: 'test-results/agents-skills-panel.png' });
});

test('a message typed during a run is queued and reaches the model at the next safe point', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  // Start the run and stop after a few steps: the run is under way, paused.
  for (let i = 0; i < 3; i++) await stepOnce(page);
  await waitForStatus(page, 'paused');
  const input = page.getByTestId('prompt-input');
  await input.fill('Please keep the fix minimal.');
  expect(await page.getByTestId('btn-send').textContent()).toContain('Queue');
  await page.getByTestId('btn-send').click();
  await expect.poll(() => page.getByTestId('steer-queued').textContent()).toContain('Please keep the fix minimal.');
  expect(await input.inputValue()).toBe('');

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const types = await rowTypes(page);
  const at = types.indexOf('interrupt.received');
  expect(at).toBeGreaterThan(types.indexOf('tool.result'));
  // Delivered before the next model call, never in the middle of one.
  expect(types.slice(at).indexOf('model.request')).toBeGreaterThan(0);
  expect(types.filter((t) => t === 'interrupt.received')).toHaveLength(1);
  await expect.poll(() => page.getByTestId('conversation').textContent()).toContain('Please keep the fix minimal.');
  expect(await page.getByTestId('steer-queued').count()).toBe(0);
});

test('Esc in the prompt box leaves it without stopping the run; X then stops it, background job included', async ({ page }) => {
  // The built-in with its test job made to take two minutes instead of two seconds: the agent
  // stops and waits for the job, so the run is certainly still working when the keys are pressed
  // (a link, trusted like the built-in).
  const builtin = findBuiltinScenario('background-tests')!;
  const slowJob = builtin.files['run-tests.sh']!.replace('sleep 2', 'sleep 120');
  expect(slowJob).toContain('sleep 120');
  await openAt(page, linkPath({ ...builtin, id: 'background-tests-slow', files: { ...builtin.files, 'run-tests.sh': slowJob } }));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  // The agent has said it waits for the notification: the run is waiting on the job.
  await expect.poll(async () => (await rowTypes(page)).filter((t) => t === 'model.response').length).toBe(5);
  await waitForStatus(page, 'running');
  const input = page.getByTestId('prompt-input');
  await input.click();
  await input.press('Escape');
  // Esc only leaves the box (issue #11: it never stops a run); the run is still working.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe('prompt-input');
  expect(await page.getByTestId('run-status').getAttribute('data-status')).not.toBe('aborted');
  await page.keyboard.press('x');
  await waitForStatus(page, 'aborted');
  const types = await rowTypes(page);
  expect(types).not.toContain('background.notification');
  // The job did not outlive the run: it was stopped with it, and the log says so.
  expect(types).toContain('background.stopped');
  // Stopped while waiting: nothing was asked of the model after the job was stopped.
  expect(types.slice(types.lastIndexOf('background.stopped'))).not.toContain('model.request');
});
