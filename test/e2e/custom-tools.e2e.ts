/**
 * Custom tools and golden cases in Chromium: a tool defined in the editor (with live field
 * errors) is called by the scripted model and its result shows; a golden case kept from a run
 * passes, fails with a result diff after the tool is edited; the hook-regression lesson's case
 * fails with a decision diff. axe-clean in both themes.
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { expect, test } from './browser.ts';
import { openApp, openTab, selectScenario, waitForStatus } from './app.ts';
import { toolCalls } from './safety-fixtures.ts';
import { replaceTodoCount } from './tools-editor.ts';



const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/hp-tools-${name}.png`, fullPage: true });

async function openTools(page: Page, scenario: string): Promise<void> {
  await openApp(page);
  await selectScenario(page, scenario);
  await openTab(page, 'tools');
}

test('a tool defined in the editor is offered to the model, called, and its result shows', async ({ page }) => {
  await openTools(page, 'custom-tool');
  // Replace the lesson's todo_count with one written here.
  await replaceTodoCount(page, 'Counts TODOs in a directory.');
  // A misspelt type: the error names the field, and Save stays off.
  await page.getByTestId('tool-schema').fill('{"type": "object", "properties": {"dir": {"type": "strng"}}, "required": ["dir"]}');
  await expect.poll(() => page.getByTestId('tool-error').allTextContents()).toContainEqual(expect.stringContaining('inputSchema.properties.dir.type'));
  expect(await page.getByTestId('btn-save-tool').isDisabled()).toBe(true);
  await page.getByTestId('tool-schema').fill('{"type": "object", "properties": {"dir": {"type": "string"}}, "required": ["dir"]}');
  await page.getByTestId('tool-readonly').check();
  await page.getByTestId('tool-source').fill("const names = (await files.list(input.dir)).map((e) => e.name);\nreturn `defined in the editor: ${names.join(', ')}`;");
  await expect.poll(() => page.getByTestId('tool-error').count()).toBe(0);
  await page.getByTestId('btn-save-tool').click();
  await expect.poll(() => page.getByTestId('tool-message').textContent()).toContain('Saved “todo_count”');
  await shot(page, 'editor');
  // The loop diagram's Tools node lists it.
  expect(await page.locator('[data-node="tools"] title').textContent()).toContain('Custom tools: todo_count.');
  expect(await page.locator('[data-node="tools"] .sub').textContent()).toBe('bash · read · +1 custom');

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const call = toolCalls(page).first();
  await expect.poll(() => call.getByTestId('tool-result').textContent()).toContain('defined in the editor: app.js, util.js');

  // A test call on the live sandbox, from the editor (the person's own call: no prompt).
  await page.getByTestId('tool-item').filter({ hasText: 'todo_count' }).click();
  await page.locator('details.test summary').click();
  await page.getByTestId('tool-test-input').fill('{"dir": "src"}');
  await page.getByTestId('btn-test-tool').click();
  await expect.poll(() => page.getByTestId('tool-test-result').textContent()).toBe('defined in the editor: app.js, util.js');
  await page.getByTestId('tool-test-input').fill('{"dir": 3}');
  await page.getByTestId('btn-test-tool').click();
  await expect.poll(() => page.getByTestId('tool-test-result').textContent()).toContain('dir: expected string');
});

test('golden cases: keep a call, pass, edit the tool, see the result diff', async ({ page }) => {
  await openTools(page, 'custom-tool');
  await page.getByTestId('golden-empty').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await page.getByTestId('btn-keep-golden').click();
  const kept = page.getByTestId('golden-case').first();
  await kept.waitFor();
  await page.getByTestId('btn-run-golden').click();
  await expect.poll(() => kept.getAttribute('data-result'), { timeout: 30_000 }).toBe('pass');

  // Change what the tool returns: the same case now fails, and the diff shows old and new.
  await page.getByTestId('tool-item').filter({ hasText: 'todo_count' }).click();
  await page.getByTestId('tool-source').fill('return { total: 0 };');
  await page.getByTestId('btn-save-tool').click();
  await page.getByTestId('btn-run-golden').click();
  await expect.poll(() => kept.getAttribute('data-result'), { timeout: 30_000 }).toBe('fail');
  const diff = kept.getByTestId('golden-diff');
  expect(await diff.textContent()).toContain('"total": 3');
  expect(await diff.textContent()).toContain('"total": 0');
  expect(await page.getByTestId('golden-summary').textContent()).toBe('0 passed, 1 failed');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the hook-regression lesson's golden case fails with a decision diff; axe-clean (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openTools(page, 'golden-hook-regression');
    // The golden cases' section loads when the tab is first shown (ToolsPanel): wait for it, not for a guess.
    await expect.poll(() => page.getByTestId('golden-case').count()).toBe(2);
    await page.getByTestId('btn-run-golden').click();
    const rm = page.locator('[data-testid="golden-case"][data-case="rm-denied"]');
    await expect.poll(() => rm.getAttribute('data-result'), { timeout: 30_000 }).toBe('fail');
    expect(await page.locator('[data-case="ls-allowed"]').getAttribute('data-result')).toBe('pass');
    expect(await rm.getByTestId('golden-field-diff').allTextContents()).toContainEqual(expect.stringMatching(/decision\s*expected\s*deny\s*got\s*allow/));
    await page.getByTestId('golden-cases').screenshot({ path: `/tmp/hp-tools-golden-cases-${scheme}.png` });
    await page.getByTestId('btn-new-tool').click();
    await shot(page, `golden-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
