/**
 * http hooks in the page: a hook whose origin the user has not allowed is a visible refusal in the
 * hooks timeline and sends nothing; after the user adds the origin in Settings → Hook endpoints,
 * the same hook POSTs the event and its answer shows (HTTP 200).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { expect, test } from './browser.ts';
import { openApp, openSettings, selectScenario, waitForStatus, openTab } from './app.ts';
import { startHookServer, type HookServer } from '../helpers/hook-server.ts';

let server: HookServer;
beforeAll(async () => {
  server = await startHookServer(() => ({ status: 200, body: '' }), { cors: true });
});
afterAll(() => server.close());

const posts = () => server.requests.filter((r) => r.method === 'POST');

async function withHttpHook(page: Page): Promise<void> {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await openSettings(page);
  // The scenario's own settings (its rules) stay; the hook joins them.
  const editor = page.getByTestId('settings-editor');
  const settings = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
  settings.hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: server.url }] }] };
  await editor.fill(JSON.stringify(settings, null, 2));
  await page.getByTestId('btn-apply-settings').click();
}

async function firstHookRow(page: Page) {
  await openTab(page, 'hooks');
  const row = page.locator('[data-testid="hook-row"][data-kind="run"]').first();
  await row.waitFor();
  return row;
}

test('an http hook to an origin nobody allowed is refused, visibly, and sends nothing', async ({ page }) => {
  const before = posts().length;
  await withHttpHook(page);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const row = await firstHookRow(page);
  await row.getByTestId('hook-refused').waitFor();
  await row.click();
  expect(await page.getByTestId('hook-stderr').textContent()).toContain('Settings → Hook endpoints');
  expect(posts().length).toBe(before);
});

test('after the user allows the origin in Settings → Hook endpoints, the hook POSTs the event', async ({ page }) => {
  const before = posts().length;
  await withHttpHook(page);
  await page.getByTestId('hook-endpoint-input').fill(server.origin);
  await page.getByTestId('hook-endpoint-add').click();
  await expect.poll(() => page.getByTestId('hook-endpoints').textContent()).toContain(server.origin);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const row = await firstHookRow(page);
  expect(await row.textContent()).toContain('HTTP 200');
  expect(posts().length).toBeGreaterThan(before);
  expect(posts()[before]!.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'bash' });
});
