import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { openApp, openSettings, openTab, selectScenario, waitForStatus } from './app.ts';
import { fileEntry, toolCalls } from './safety-fixtures.ts';
import { startHookServer } from '../helpers/hook-server.ts';
import { seriousViolations } from './axe.ts';

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

/** The hooks the settings editor holds for `event`, parsed (the editor is in JSON). */
async function editorHooks(page: Page, event: string): Promise<unknown[]> {
  const s = JSON.parse(await page.getByTestId('settings-editor').inputValue()) as { hooks?: Record<string, { hooks: unknown[] }[]> };
  return (s.hooks?.[event] ?? []).flatMap((g) => g.hooks);
}

test('an http hook composed in Settings: Claude Code’s JSON, a note on Hook endpoints, and once its origin is allowed it POSTs with its headers', async ({ page }) => {
  const server = await startHookServer(() => ({ status: 200, body: '' }), { cors: true });
  try {
    await openApp(page);
    await selectScenario(page, 'deny-beats-allow');
    await openSettings(page);
    await page.getByTestId('hook-composer').locator('summary').click();
    await page.getByTestId('hook-type-http').click();
    // The composer says the page calls only the origins the user allowed.
    expect(await page.getByTestId('hook-http-note').textContent()).toContain('Settings → Hook endpoints');
    // No URL yet: said, not dropped.
    await page.getByTestId('btn-add-hook').click();
    expect(await page.getByTestId('hook-problem').textContent()).toContain('http(s) URL');
    await page.getByTestId('hook-url').fill(server.url);
    await page.getByTestId('hook-origin-unlisted').waitFor();
    await page.getByTestId('hook-headers').fill('X-Hook-Source: playground\nAuthorization: Bearer $HOOK_TOKEN');
    expect(await page.getByTestId('hook-env-unlisted').textContent()).toContain('$HOOK_TOKEN');
    // The http form, with both warnings on screen, is axe-clean.
    expect(await seriousViolations(page, '[data-testid="hook-composer"]')).toEqual([]);
    await page.getByTestId('hook-env-vars').fill('HOOK_TOKEN');
    await expect.poll(() => page.getByTestId('hook-env-unlisted').count()).toBe(0);
    await page.getByTestId('hook-timeout').fill('15');
    await page.getByTestId('btn-add-hook').click();
    await expect.poll(() => editorHooks(page, 'PreToolUse')).toContainEqual({
      type: 'http',
      url: server.url,
      headers: { 'X-Hook-Source': 'playground', Authorization: 'Bearer $HOOK_TOKEN' },
      allowedEnvVars: ['HOOK_TOKEN'],
      timeout: 15,
    });
    // Allowing the origin clears the composer's warning; the run then POSTs the event with the headers.
    await page.getByTestId('hook-endpoint-input').fill(server.origin);
    await page.getByTestId('hook-endpoint-add').click();
    await expect.poll(() => page.getByTestId('hook-origin-unlisted').count()).toBe(0);
    await page.getByTestId('btn-apply-settings').click();
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    const post = server.requests.find((r) => r.method === 'POST');
    expect(post?.headers['x-hook-source']).toBe('playground');
    expect(post?.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'bash' });
  } finally {
    await server.close();
  }
});

test('a prompt hook composed in Settings is Claude Code’s { type: "prompt", prompt, model } and applies', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await openSettings(page);
  await page.getByTestId('hook-composer').locator('summary').click();
  await page.getByTestId('hook-type-prompt').click();
  await page.getByTestId('hook-event').selectOption('Stop');
  await page.getByTestId('hook-matcher').fill('');
  await page.getByTestId('hook-body').fill('Did the agent finish the task? $ARGUMENTS');
  await page.getByTestId('hook-model').fill('claude-haiku-4-5');
  await page.getByTestId('btn-add-hook').click();
  await expect.poll(() => editorHooks(page, 'Stop')).toEqual([{ type: 'prompt', prompt: 'Did the agent finish the task? $ARGUMENTS', model: 'claude-haiku-4-5' }]);
  expect(await page.getByTestId('settings-error').count()).toBe(0);
  await page.getByTestId('btn-apply-settings').click();
  // Applied: the editor is no longer dirty (Apply is off again) and no error came back.
  await expect.poll(() => page.getByTestId('btn-apply-settings').isDisabled()).toBe(true);
  expect(await page.getByTestId('settings-error').count()).toBe(0);
});
