/** The Tools tab's editor, as the custom-tool e2e tests drive it. */
import type { Page } from 'playwright-core';
import { expect } from './browser.ts';

/** Deletes the custom-tool lesson's own `todo_count` and opens the editor on a new tool of that name. */
export async function replaceTodoCount(page: Page, description: string): Promise<void> {
  await page.getByTestId('tool-item').filter({ hasText: 'todo_count' }).click();
  await page.getByTestId('btn-delete-tool').click();
  await expect.poll(() => page.getByTestId('tools-empty').count()).toBe(1);
  await page.getByTestId('btn-new-tool').click();
  await page.getByTestId('tool-name').fill('todo_count');
  await page.getByTestId('tool-description').fill(description);
}
