import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { openApp, openTab, selectScenario, waitForStatus } from './app.ts';

async function openMemoryTab(page: Page): Promise<void> {
  await openTab(page, 'memory');
  await page.getByTestId('memory-panel').waitFor();
}

/** The memory texts shown, in order. */
async function shownMemories(page: Page): Promise<string[]> {
  return page.getByTestId('memory-row').getByTestId('memory-content').allTextContents();
}

test('a memory added and edited in the panel is still there after a reload; a deleted one stays gone', async ({ page }) => {
  await openApp(page);
  await openMemoryTab(page);
  await expect.poll(() => page.getByTestId('memory-empty').isVisible()).toBe(true);

  await page.getByTestId('memory-input').fill('Tests run with vitest');
  await page.getByTestId('memory-add').click();
  await page.getByTestId('memory-input').fill('The staging host is staging.local');
  await page.getByTestId('memory-input').press('Enter');
  await expect.poll(() => shownMemories(page)).toEqual(['Tests run with vitest', 'The staging host is staging.local']);
  expect(await page.getByTestId('memory-input').inputValue()).toBe('');

  // Edit the first one inline.
  const first = page.getByTestId('memory-row').first();
  const id = await first.getAttribute('data-id');
  expect(id).toMatch(/^mem_/);
  await first.getByTestId('memory-edit').click();
  await first.getByTestId('memory-edit-input').fill('Tests run with vitest, never jest');
  await first.getByTestId('memory-save').click();
  await expect.poll(() => shownMemories(page)).toEqual(['Tests run with vitest, never jest', 'The staging host is staging.local']);

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openMemoryTab(page);
  await expect.poll(() => shownMemories(page)).toEqual(['Tests run with vitest, never jest', 'The staging host is staging.local']);
  expect(await page.getByTestId('memory-row').first().getAttribute('data-id')).toBe(id);
  expect(await page.getByTestId('memory-row').first().getAttribute('data-source')).toBe('explicit');

  // Delete the edited one; after a reload only the other remains.
  await page.locator(`[data-testid="memory-row"][data-id="${id}"]`).getByTestId('memory-delete').click();
  await expect.poll(() => shownMemories(page)).toEqual(['The staging host is staging.local']);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openMemoryTab(page);
  await expect.poll(() => shownMemories(page)).toEqual(['The staging host is staging.local']);
});

test('a duplicate memory is refused with a message, and nothing is added', async ({ page }) => {
  await openApp(page);
  await openMemoryTab(page);
  await page.getByTestId('memory-input').fill('Use pnpm');
  await page.getByTestId('memory-add').click();
  await expect.poll(() => shownMemories(page)).toEqual(['Use pnpm']);
  await page.getByTestId('memory-input').fill('use pnpm.');
  await page.getByTestId('memory-add').click();
  await expect.poll(() => page.getByTestId('memory-error').textContent()).toMatch(/already kept/);
  expect(await shownMemories(page)).toEqual(['Use pnpm']);
});

test('a memory given to a run counts its use in the panel (decay by reference)', async ({ page }) => {
  await openApp(page);
  await openMemoryTab(page);
  await page.getByTestId('memory-input').fill('The old.log file is kept for audits');
  await page.getByTestId('memory-add').click();
  const row = page.getByTestId('memory-row').first();
  await expect.poll(() => row.getByTestId('memory-uses').getAttribute('data-references')).toBe('0');
  expect(await row.getByTestId('memory-uses').textContent()).toContain('used 0× · ×1.00');

  // The scenario's prompt ("delete old.log …") shares words with it: the run is given the memory.
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await openMemoryTab(page);
  await expect.poll(() => page.getByTestId('memory-row').first().getByTestId('memory-uses').getAttribute('data-references')).toBe('1');
  expect(await page.getByTestId('memory-row').first().getByTestId('memory-uses').textContent()).toContain('used 1×');
});
