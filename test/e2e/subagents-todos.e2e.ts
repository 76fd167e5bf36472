/**
 * Agents in the browser: two parallel subagents nest as lanes in the conversation and the event
 * stream (each folds away), the loop diagram lights its agents node while a subagent works, and
 * the Todos panel follows the plan live and as it was at a stepped-back event. The lesson
 * questions stop Run exactly where the headless run puts them.
 */
import { seriousViolations } from './axe.ts';
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { activeNodes, holdAtQuestions, openApp, openTab, rows, selectScenario, stepOnce, waitForStatus } from './app.ts';

const position = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-position'));

/** Run until the lesson question holds, check where it sits, answer it, and run to the end. */
async function runThroughQuestion(page: Page, atSeq: number): Promise<void> {
  await page.getByTestId('btn-run').click();
  const question = page.getByTestId('lesson-question');
  await question.waitFor();
  expect(await question.getAttribute('data-seq')).toBe(String(atSeq));
  await expect.poll(() => rows(page).count()).toBe(atSeq);
  await page.getByTestId('question-choice').first().click();
  await page.getByTestId('question-answer').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
}

test('two parallel subagents show as nested lanes that fold, and light the agents node', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'delegate-parallel-subagents');
  await runThroughQuestion(page, 229);

  // The conversation: one lane per agent call, each with the child's own tool calls.
  const lanes = page.getByTestId('conversation').getByTestId('subagent-lane');
  await expect.poll(() => lanes.count()).toBe(2);
  for (let i = 0; i < 2; i++) {
    const lane = lanes.nth(i);
    expect(await lane.getAttribute('data-open')).toBe('true');
    expect(await lane.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-tool')))).toEqual(['grep', 'read']);
  }
  expect(await lanes.first().locator('.what').textContent()).toBe('find the settings');
  await lanes.first().getByTestId('lane-toggle').click();
  await expect.poll(() => lanes.first().getAttribute('data-open')).toBe('false');
  expect(await lanes.first().getByTestId('tool-call').count()).toBe(0);
  expect(await lanes.nth(1).getByTestId('tool-call').count()).toBe(2);

  // The event stream: the children's rows are nested; folding a lane hides its rows.
  const list = page.getByTestId('event-list');
  const nested = list.locator('[data-testid="event-row"]:not([data-agent="main"])');
  const all = await rows(page).count();
  const nestedBefore = await nested.count();
  expect(nestedBefore).toBeGreaterThan(50);
  const toggles = list.getByTestId('event-lane-toggle');
  expect(await toggles.count()).toBe(2);
  // A listbox of options only, lane toggles included (axe: aria-required-children).
  expect(await seriousViolations(page, '[data-testid="event-list"]')).toEqual([]);
  const firstChild = await list.locator('[data-testid="event-row"][data-type="run.start"]:not([data-agent="main"])').first().getAttribute('data-agent');
  await toggles.first().click();
  await expect.poll(() => list.locator(`[data-testid="event-row"][data-agent="${firstChild}"]`).count()).toBe(0);
  expect(await toggles.first().getAttribute('aria-label')).toMatch(/^Show the lane of /);
  expect(await rows(page).count()).toBeLessThan(all);
  await toggles.first().click();
  await expect.poll(() => rows(page).count()).toBe(all);

  // Step back onto a subagent's event: the agents node is lit, and the caption names the subagent.
  await page.getByTestId('btn-step-back').click();
  const lastRow = () => rows(page).last().getAttribute('data-agent');
  for (let i = 0; i < 60 && (await lastRow()) === 'main'; i++) await page.keyboard.press('b');
  expect(await lastRow()).not.toBe('main');
  await expect.poll(() => activeNodes(page)).toEqual(['agents']);
  expect(await page.locator('.caption').textContent()).toContain('Subagent agent-general-purpose_');
});

test('the Todos panel follows the plan live and shows it as it was when stepped back', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'plan-with-todos');
  await openTab(page, 'todos');
  const panel = page.getByTestId('todo-panel');
  expect(await panel.textContent()).toContain('No todo list yet');
  const statuses = () => panel.getByTestId('todo-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));

  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  // Held at the refused double in_progress: the panel still shows the last accepted list.
  expect(await statuses()).toEqual(['completed', 'in_progress', 'pending', 'pending']);
  expect(await panel.textContent()).toContain('Renaming it in src/math.sh');
  expect(await panel.textContent()).toContain('reminded in turn 6');
  await page.getByTestId('question-choice').first().click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(statuses).toEqual(['completed', 'completed', 'completed', 'completed']);
  expect(await panel.getByTestId('todo-stepped-back').count()).toBe(0);

  // Step back to before the last update: the list as it was then, and a label saying so.
  await page.getByTestId('btn-step-back').click();
  for (let i = 0; i < 30 && (await statuses()).every((s) => s === 'completed'); i++) await page.keyboard.press('b');
  expect(await statuses()).toEqual(['completed', 'completed', 'completed', 'in_progress']);
  await panel.getByTestId('todo-stepped-back').waitFor();
  expect(await panel.getByTestId('todo-stepped-back').textContent()).toContain(`event ${await position(page)}`);
});

test('stepping through a subagent\'s end pulls one event at a time, and the custom agent\'s lane shows its run', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'custom-subagent');
  // Run stops at the question about the subagent's own transition.
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  await expect.poll(() => rows(page).count()).toBe(80);
  await page.getByTestId('question-choice').first().click();
  await page.getByTestId('question-answer').waitFor();
  // Each Step is one event, the subagent's run.end included (it does not end the main run).
  await stepOnce(page);
  expect(await rows(page).last().getAttribute('data-type')).toBe('transition');
  await stepOnce(page);
  expect(await rows(page).last().getAttribute('data-type')).toBe('run.end');
  expect(await rows(page).last().getAttribute('data-agent')).not.toBe('main');
  expect(await page.getByTestId('run-status').textContent()).not.toContain('done');
  await stepOnce(page);
  expect(await rows(page).last().getAttribute('data-type')).toBe('subagent.stop');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const lane = page.getByTestId('conversation').getByTestId('subagent-lane');
  expect(await lane.locator('.who').textContent()).toBe('test-runner');
  expect(await lane.locator('.state').textContent()).toMatch(/completed · 2 turns · [\d,]+ tokens/);
});
