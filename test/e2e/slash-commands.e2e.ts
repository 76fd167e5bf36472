import { expect, test } from './browser.ts';
import { openTab, rowTypes, runToEnd, waitForStatus } from './app.ts';

// Issue 19 §3: slash commands in the page's prompt box run in the harness (a `slash.command`
// event in the event list), never reach the model, and a panel command opens its tab.
test('/compact in the prompt box summarises the conversation: a slash.command row, no model call', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  const requestsBefore = (await rowTypes(page)).filter((t) => t === 'model.request').length;
  await page.getByTestId('prompt-input').fill('/compact keep the test names');
  await page.getByTestId('prompt-input').press('Enter');
  await expect.poll(async () => (await rowTypes(page)).includes('slash.command'), { timeout: 45_000 }).toBe(true);
  await waitForStatus(page, 'done');
  const types = await rowTypes(page);
  expect(types.filter((t) => t === 'model.request').length).toBe(requestsBefore);
  await expect.poll(() => page.getByTestId('slash-note').last().textContent()).toMatch(/\/compact keep the test names.*\/compact: (summarised|nothing to compact)/);
});

test('/hooks in the prompt box opens the Hooks tab and says so', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  await openTab(page, 'scenario');
  await page.getByTestId('prompt-input').fill('/hooks');
  await page.getByTestId('prompt-input').press('Enter');
  await expect.poll(() => page.getByTestId('tab-hooks').getAttribute('aria-selected'), { timeout: 45_000 }).toBe('true');
  await expect.poll(() => page.getByTestId('slash-note').last().textContent()).toContain('Opened the Hooks tab');
  expect(await rowTypes(page)).toContain('slash.command');
});
