/**
 * Step back rewinds the Files panel too: it shows the files as the session log's snapshots had
 * them at that event (read-only), and the live files again at the end.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { fileViewerText, rowTypes, runToEnd } from './app.ts';
import { fixABugExpectation } from './oracle.ts';

const position = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-position'));
const total = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-total'));

test('stepping back before the edit shows the buggy file, read-only; stepping to the end shows the fix', async ({ page }) => {
  const oracle = await fixABugExpectation();
  await runToEnd(page, 'fix-a-bug');

  // The edit's tool.proposed row: tool calls are proposed one at a time, in script order.
  const types = await rowTypes(page);
  const n = types.length;
  const editCall = oracle.toolNames.indexOf('edit');
  const proposed = types.flatMap((t, i) => (t === 'tool.proposed' ? [i] : []));
  const editProposed = proposed[editCall];
  expect(editProposed).toBeDefined();
  const atCursor = page.getByTestId('files-at-cursor');
  expect(await atCursor.count()).toBe(0);

  // Live, at the end: the fixed file.
  const entry = page.getByTestId('file-tree').locator(`[data-testid="file-entry"][data-path="${oracle.editedPath}"]`);
  await entry.click();
  await page.getByTestId('file-viewer').waitFor();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(oracle.fixedSnippet);

  // Step back until fewer events are shown than the index of the edit's proposal.
  await page.getByTestId('btn-step-back').click();
  while ((await position(page)) >= editProposed!) await page.keyboard.press('b');
  const at = await position(page);
  expect(at).toBeLessThan(editProposed!);
  expect(await total(page)).toBe(n);

  await atCursor.waitFor();
  await expect.poll(() => atCursor.getAttribute('data-at')).toBe(String(at));
  expect(await atCursor.textContent()).toContain(`as at event ${at} — read-only`);
  await entry.click();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(oracle.buggySnippet);
  expect(await fileViewerText(page)).not.toContain(oracle.fixedSnippet);

  // Step forward to the end: live files again, with the fix, and no label.
  while ((await position(page)) < n) await page.getByTestId('btn-step').click();
  await expect.poll(() => atCursor.count()).toBe(0);
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(oracle.fixedSnippet);
  expect(await fileViewerText(page)).not.toContain(oracle.buggySnippet);
  expect(await total(page)).toBe(n);
});
