import { expect, test } from './browser.ts';
import { openTab, rows, runToEnd } from './app.ts';

test('a run stopped by its budget: the end card says max_budget and what it cost; the Cost view prices every request', async ({ page }) => {
  await runToEnd(page, 'budget-stop');
  const end = page.getByTestId('run-end');
  await expect.poll(() => end.getAttribute('data-reason')).toBe('max_budget');
  expect(await page.getByTestId('run-cost').textContent()).toMatch(/^\$0\.0\d{3}$/);
  await openTab(page, 'context');
  await page.getByTestId('context-view-cost').click();
  const requests = await rows(page).and(page.locator('[data-type="model.request"]')).count();
  await expect.poll(() => page.getByTestId('cost-request').count()).toBe(requests);
  expect(await page.getByTestId('cost-total').textContent()).toBe(await page.getByTestId('run-cost').textContent());
  expect(await page.locator('[data-testid="cost-agent"][data-agent="main"]').count()).toBe(1);
  expect(await page.getByTestId('cost-tool').count()).toBeGreaterThan(0);
});

test('a subagent’s cost has its own line under its parent; a model that is not found switches to the fallback, with a card', async ({ page }) => {
  await runToEnd(page, 'delegate-parallel-subagents');
  await openTab(page, 'context');
  await page.getByTestId('context-view-cost').click();
  await expect.poll(() => page.getByTestId('cost-agent').count()).toBeGreaterThan(2);
  await runToEnd(page, 'model-fallback');
  await expect.poll(() => page.getByTestId('fallback-card').count()).toBe(1);
  expect(await page.getByTestId('fallback-card').textContent()).toContain('claude-haiku-5-5');
});
