/**
 * An imported ~/.claude/settings.json (the user scope) is kept in this browser: after a reload it
 * is shown in the Workbench tab and applies to another scenario's run (its bare deny hides a
 * tool); what can act in it waits for trust; Clear removes it for good.
 */
import type { Page } from 'playwright-core';
import { expect, shotPath, test } from './browser.ts';
import { openApp, openTab, rowTypes, selectScenario, waitForStatus } from './app.ts';
import { seriousViolations } from './axe.ts';

const USER_SETTINGS = '{ "permissions": { "deny": ["Glob"], "allow": ["Bash(git status)"] } }';

async function runFixABug(page: Page): Promise<string[]> {
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  return rowTypes(page);
}

const box = (page: Page) => page.getByTestId('user-scope');

async function shots(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page, '[data-testid="user-scope"]')).toEqual([]);
    for (const [w, h] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await box(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`persist/user-scope-${scheme}-${w}.png`) });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the user scope survives a reload, applies to other scenarios, waits for trust, and clears', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openTab(page, 'workbench');
  await page.getByText('Paste a file').click();
  await page.getByTestId('claude-paste-path').fill('~/.claude/settings.json');
  await page.getByTestId('claude-paste-text').fill(USER_SETTINGS);
  await page.getByTestId('claude-paste-add').click();
  await page.getByTestId('claude-import-run').click();
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-distrust').click();
  await expect.poll(() => box(page).getAttribute('data-trusted')).toBe('false');

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openTab(page, 'workbench');
  await box(page).waitFor();
  expect(await box(page).textContent()).toContain('~/.claude/settings.json');
  await page.getByTestId('user-scope-untrusted').waitFor();
  await shots(page);
  // Another scenario's run: the user scope's bare deny (deny rules need no trust) hides glob.
  const types = await runFixABug(page);
  expect(types).toContain('permission.prefilter');
  expect(await page.getByTestId('event-list').locator('[data-type="permission.prefilter"]').innerText()).toMatch(/glob/);

  await openTab(page, 'workbench');
  await page.getByTestId('btn-user-scope-trust').click();
  await expect.poll(() => box(page).getAttribute('data-trusted')).toBe('true');
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openTab(page, 'workbench');
  await expect.poll(() => box(page).getAttribute('data-trusted')).toBe('true');

  await page.getByTestId('btn-user-scope-clear').click();
  await expect.poll(() => box(page).count()).toBe(0);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await openTab(page, 'workbench');
  await page.getByTestId('claude-dir').waitFor();
  expect(await box(page).count()).toBe(0);
  await page.getByTestId('btn-reset').click();
  expect(await runFixABug(page)).not.toContain('permission.prefilter');
});
