import { expect, test } from './browser.ts';
import { openApp, openSettings, openTab, selectScenario, waitForStatus } from './app.ts';
import { fileEntry, toolCalls } from './safety-fixtures.ts';

test('a JS hook composed in Settings runs in a Worker and blocks the call it was written for', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await openSettings(page);

  // Compose the template hook: PreToolUse on bash, a JS body that blocks rm.
  const composer = page.getByTestId('hook-composer');
  await composer.locator('summary').click();
  await page.getByTestId('hook-type-js').click();
  await page.getByTestId('hook-name').fill('no rm');
  await page.getByTestId('btn-add-hook').click();
  // The editor keeps its format (JSON stays JSON) and holds the hook.
  await expect.poll(() => page.getByTestId('settings-editor').inputValue()).toContain('"name": "no rm"');
  const editorText = await page.getByTestId('settings-editor').inputValue();
  expect(await page.getByTestId('settings-format-json').getAttribute('aria-checked')).toBe('true');
  expect(() => JSON.parse(editorText)).not.toThrow();
  await page.getByTestId('btn-apply-settings').click();

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  // The first rm (allowed by Bash(rm *)) is now refused by the hook, at the hooks stage.
  const first = toolCalls(page).first();
  expect(await first.getByTestId('tool-result').textContent()).toContain('rm is not allowed here');
  const decider = first.locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('hooks');
  expect(await fileEntry(page, '/home/project/old.log').count()).toBe(1);

  // The hooks timeline shows the JS hook's runs.
  await openTab(page, 'hooks');
  const row = page.getByTestId('hook-row').first();
  await row.waitFor();
  expect(await row.getAttribute('data-event')).toBe('PreToolUse');
  expect(await row.textContent()).toContain('no rm');
});

test('a hook added while the editor is in YAML stays YAML', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await openSettings(page);
  await page.getByTestId('settings-format-yaml').click();
  const composer = page.getByTestId('hook-composer');
  await composer.locator('summary').click();
  await page.getByTestId('hook-type-js').click();
  await page.getByTestId('hook-name').fill('no rm');
  await page.getByTestId('btn-add-hook').click();
  await expect.poll(() => page.getByTestId('settings-editor').inputValue()).toContain('name: no rm');
  expect(await page.getByTestId('settings-format-yaml').getAttribute('aria-checked')).toBe('true');
  expect(await page.getByTestId('settings-editor').inputValue()).not.toMatch(/^\s*\{/);
});
