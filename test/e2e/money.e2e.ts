import { expect, test } from './browser.ts';
import { openApp, openSettings, openTab, rows, rowTypes, runToEnd, waitForStatus } from './app.ts';
import { goLive, runDemoConversation } from './live-helpers.ts';

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

test('a live run whose compaction calls the model: the summary call is its own compact_summary line in the Cost view, with its tokens and dollars', async ({ page }) => {
  await openApp(page);
  await goLive(page);
  // The fake server's demo conversation (a bash call, allowed once), then /compact: the summary is a model call.
  await runDemoConversation(page);
  await page.getByTestId('prompt-input').fill('/compact');
  await page.getByTestId('prompt-input').press('Enter');
  await expect.poll(async () => (await rowTypes(page)).includes('slash.command'), { timeout: 45_000 }).toBe(true);
  await waitForStatus(page, 'done');
  await expect.poll(() => page.getByTestId('slash-note').last().textContent()).toMatch(/\/compact: summarised/);

  await openTab(page, 'context');
  await page.getByTestId('context-view-cost').click();
  const line = page.locator('[data-testid="cost-side-call"][data-kind="compact_summary"]');
  await expect.poll(() => line.count()).toBe(1);
  const text = (await line.textContent()) ?? '';
  expect(text).toMatch(/compact summary\s*\$0\.\d{4}/);
  const [, input, output] = /(\d+) tok in · (\d+) tok out/.exec((await line.getByTestId('cost-side-call-tokens').textContent()) ?? '') ?? [];
  expect(Number(input)).toBeGreaterThan(0);
  expect(Number(output)).toBeGreaterThan(0);
  // Beside the agent's two requests, in the run's total.
  expect(await page.getByTestId('cost-request').count()).toBe(2);
  expect(await page.getByTestId('cost-panel').textContent()).toMatch(/over 2 request\(s\)\s*and 1 other call\(s\)/);
});

test('a price table applied in Settings survives a reload and prices the first run after it: the budget stops that run sooner', async ({ page }) => {
  const requests = () => rows(page).and(page.locator('[data-type="model.request"]')).count();
  const end = page.getByTestId('run-end');
  await runToEnd(page, 'budget-stop');
  await expect.poll(() => end.getAttribute('data-reason')).toBe('max_budget');
  const builtIn = await requests();

  // Ten times every price, applied in Settings (saved in this browser).
  await openSettings(page);
  const money = page.getByTestId('money-settings');
  await money.locator('summary').click();
  type Row = Record<string, number>;
  const table = JSON.parse(await page.getByTestId('prices-json').inputValue()) as { source: string; models: Record<string, Row> };
  for (const row of Object.values(table.models)) for (const k of Object.keys(row)) row[k] = row[k]! * 10;
  table.source = 'ten times the built-in table (a test)';
  await page.getByTestId('prices-json').fill(JSON.stringify(table));
  await page.getByTestId('prices-apply').click();
  await expect.poll(() => page.getByTestId('prices-source').textContent()).toBe(table.source);

  // After a reload the saved table is checked before the first run reads it: that run is priced with it.
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await page.getByTestId('btn-reset').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => end.getAttribute('data-reason')).toBe('max_budget');
  expect(await requests()).toBeLessThan(builtIn);
  await openSettings(page);
  await money.locator('summary').click();
  expect(await page.getByTestId('prices-source').textContent()).toBe(table.source);
});
