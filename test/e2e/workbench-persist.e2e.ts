/**
 * The workbench is saved with the session: a tool defined in the editor and a golden case kept
 * from the run are back after a reload (not the library's version of the scenario), and the case
 * still runs and passes. A link's tools come back as the link's: after a reload the trust question
 * is asked again and, until answered, they are not offered. A file edited in the Files panel is
 * back after a reload too (the session's snapshot of the user's change).
 */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { expect, shotPath, test } from './browser.ts';
import { fileEntry, fileViewerText, openApp, openTab, rowTypes, selectScenario, stepOnce, typeAtTopOfFile, waitForStatus } from './app.ts';
import { linkPath, openAt, toolCalls } from './safety-fixtures.ts';
import { seriousViolations } from './axe.ts';
import { replaceTodoCount } from './tools-editor.ts';

const SOURCE = "const names = (await files.list(input.dir)).map((e) => e.name);\nreturn `defined in the editor: ${names.join(', ')}`;";

async function defineTool(page: Page): Promise<void> {
  await replaceTodoCount(page, 'Counts TODOs in a directory.');
  await page.getByTestId('tool-schema').fill('{"type": "object", "properties": {"dir": {"type": "string"}}, "required": ["dir"]}');
  await page.getByTestId('tool-readonly').check();
  await page.getByTestId('tool-source').fill(SOURCE);
  await page.getByTestId('btn-save-tool').click();
  await expect.poll(() => page.getByTestId('tool-message').textContent()).toContain('Saved “todo_count”');
}

const shot = async (page: Page, name: string) => {
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: shotPath(`persist/${name}-${w}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
};

test('a tool defined in the editor and a golden case are back after a reload, and the case still passes', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'custom-tool');
  await openTab(page, 'tools');
  await defineTool(page);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => toolCalls(page).first().getByTestId('tool-result').textContent()).toContain('defined in the editor');
  // Kept after the run: recorded between runs, as an edit of the session's workbench.
  await page.getByTestId('btn-keep-golden').click();
  await page.getByTestId('golden-case').first().waitFor();

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  const notice = page.getByTestId('session-notice');
  await notice.waitFor();
  await expect.poll(() => notice.getByTestId('session-workbench').textContent()).toContain('1 custom tool, 1 golden case');
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('custom-tool');
  await openTab(page, 'tools');
  await page.getByTestId('tool-item').filter({ hasText: 'todo_count' }).click();
  // The editor's tool, not the lesson's.
  expect(await page.getByTestId('tool-source').inputValue()).toBe(SOURCE);
  const kept = page.getByTestId('golden-case');
  expect(await kept.count()).toBe(1);
  // The "Record a call" dropdown shows the newest call of the restored session, not a blank.
  const picker = page.getByTestId('golden-call');
  const shown = await picker.evaluate((el) => {
    const s = el as HTMLSelectElement;
    return { index: s.selectedIndex, last: s.options.length - 1, text: s.selectedOptions[0]?.textContent ?? '' };
  });
  expect(shown.index).toBe(shown.last);
  expect(shown.text).toContain('todo_count');
  await page.getByTestId('btn-run-golden').click();
  await expect.poll(() => kept.first().getAttribute('data-result'), { timeout: 30_000 }).toBe('pass');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `workbench-restored-${scheme}`);
  }
});

function toolLink(): Scenario {
  const r = parseScenario({
    id: 'tool-link-persist',
    title: 'A link that carries a custom tool',
    prompt: 'Shout hello.',
    model: { kind: 'scripted', turns: [{ content: [{ type: 'tool_use', name: 'shout', input: { text: 'hello' } }] }, { content: [{ type: 'text', text: 'done' }] }] },
    settings: {
      permissions: { allow: ['shout'] },
      customTools: [
        {
          name: 'shout',
          description: 'Shouts a text.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          implementation: { kind: 'js', source: 'return input.text.toUpperCase();' },
        },
      ],
    },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

test('a link\'s tools restored from a session stay untrusted: the question is asked again', async ({ page }) => {
  await openAt(page, linkPath(toolLink()));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-distrust').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done', 'error');
  // Back without the link in the address: the session reopens with the link's workbench, as the link's.
  await page.goto(`${inject('baseUrl')}/`);
  await page.getByTestId('scenario-picker').waitFor();
  await page.getByTestId('session-notice').waitFor();
  expect(await page.getByTestId('session-workbench').textContent()).toContain('until you trust it');
  await page.getByTestId('trust-dialog').waitFor();
  expect(await page.getByTestId('trust-dialog').getByTestId('trust-tool').allTextContents()).toEqual(['shout (js)']);
  await page.getByTestId('btn-distrust').click();
  await openTab(page, 'tools');
  await page.getByTestId('tools-untrusted').waitFor();
  expect(await page.getByTestId('tool-item').allTextContents()).toEqual(['shout']);
});

test('a file edited in the Files panel is back after a reload', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await stepOnce(page);
  const calc = fileEntry(page, '/home/project/calc.sh');
  await calc.click();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('total=');
  await typeAtTopOfFile(page, '# kept across the reload\n');
  await page.keyboard.press('ControlOrMeta+s');
  await expect.poll(async () => (await rowTypes(page)).at(-1)).toBe('sandbox.changed');
  // The row shows while the save is still writing the log; the button reads "Saving…" until the
  // event and its snapshot are in IndexedDB. Reloading before that would lose the edit, as the
  // button says.
  await expect.poll(() => page.getByTestId('file-save').textContent()).not.toContain('Saving');
  await page.reload();
  await page.getByTestId('session-notice').waitFor();
  await fileEntry(page, '/home/project/calc.sh').click();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('# kept across the reload');
});
