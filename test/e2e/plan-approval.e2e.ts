import { expect, test } from './browser.ts';
import { openApp, rowTypes, selectScenario, waitForStatus } from './app.ts';
import { toolCalls } from './safety-fixtures.ts';

test('plan-mode: the agent presents its plan with exit_plan_mode; Allow leaves plan mode (permission.mode_changed)', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'plan-mode');
  await page.getByTestId('btn-run').click();

  const dialog = page.getByTestId('permission-dialog');
  await dialog.waitFor();
  // The dialog shows the plan the agent presents.
  await expect.poll(() => page.getByTestId('permission-input').textContent()).toContain('Hello there, friend!');
  await page.getByTestId('btn-allow-once').click();
  await waitForStatus(page, 'done');

  expect(await rowTypes(page)).toContain('permission.mode_changed');
  const planCall = toolCalls(page).last();
  expect(await planCall.getByTestId('tool-result').textContent()).toContain('User has approved your plan');
});
