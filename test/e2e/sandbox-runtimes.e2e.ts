import { expect, test } from './browser.ts';
import { holdAtQuestions, openApp, selectScenario, waitForStatus } from './app.ts';

// The whole node-project-bug scenario in the built app: the sandbox Worker seeds a git repo
// (settings.git), runs npm test (node --test in QuickJS-WASM) twice, git diff and git commit.
test('node-project-bug runs npm test, fixes the bug, and commits it in the browser sandbox', { timeout: 180_000 }, async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'node-project-bug');
  await page.getByTestId('btn-run').click();
  // The lesson's question holds the run after the edit; answering shows why, then Run goes on.
  await page.getByTestId('lesson-question').waitFor({ timeout: 90_000 });
  await page.getByTestId('question-choice').first().click();
  await expect.poll(() => page.getByTestId('question-answer').textContent()).toContain('all four tests pass');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const results = page.getByTestId('conversation').getByTestId('tool-call').getByTestId('tool-result');
  await expect.poll(() => results.count(), { timeout: 60_000 }).toBe(6);
  const texts = await results.allTextContents();
  expect(texts[0]).toMatch(/not ok 2 - totals the value of every unit in stock[\s\S]*1750 !== 2300[\s\S]*# fail 1/);
  expect(texts[3]).toMatch(/# pass 4\s*# fail 0/);
  expect(texts[4]).toContain('+  return items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);');
  expect(texts[5]).toMatch(/\[main [0-9a-f]{7}\] Fix totalValue: multiply unit price by quantity/);
  // The repository isomorphic-git wrote is in the file tree.
  await page.getByTestId('file-tree').locator('[data-testid="file-entry"][data-path="/home/project/.git/HEAD"]').or(
    page.getByTestId('file-tree').locator('[data-testid="file-entry"][data-path="/home/project/.git"]'),
  ).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/node-project-bug.png' });
});
