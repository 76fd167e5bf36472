import { expect, test } from './browser.ts';
import { fileViewerText, runToEnd } from './app.ts';

// Issue 19 §4: Claude Code's `#` quick-add — a prompt starting with `#` saves a memory to the
// project's CLAUDE.md instead of going to the model.
test('"# note" in the prompt box saves a bullet to CLAUDE.md and sends nothing', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  const userMessages = page.getByTestId('conversation').locator('[data-testid="msg"][data-role="user"]');
  const before = await userMessages.count();

  await page.getByTestId('prompt-input').fill('# always run the tests before saying done');
  await page.getByTestId('prompt-input').press('Enter');
  await expect.poll(() => page.getByTestId('quick-memory').textContent()).toContain('Saved to /home/project/CLAUDE.md');
  expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
  expect(await userMessages.count()).toBe(before);

  await page.getByTestId('file-tree').locator('[data-testid="file-entry"][data-path="/home/project/CLAUDE.md"]').click();
  await page.getByTestId('file-viewer').waitFor();
  // The viewer wraps long lines at its width (narrower while a loaded machine is still laying out
  // the page), so compare the text with wrapping undone.
  await expect
    .poll(async () => (await fileViewerText(page)).replace(/\s+/g, ' '), { timeout: 30_000 })
    .toContain('- always run the tests before saying done');
});
