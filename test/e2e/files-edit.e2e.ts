/**
 * The Files panel edits the live sandbox: a saved edit is recorded as a user `sandbox.changed`
 * event and the agent reads the new text on its next call; new / rename / delete work from the
 * toolbar; stepping back makes the panel read-only and says why.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { fileEntry, fileViewerText, openApp, rowTypes, selectScenario, stepOnce, typeAtTopOfFile, waitForStatus } from './app.ts';

const entry = fileEntry;
const ROOT = '/home/project';

/** fix-a-bug, stepped once: run.start has seeded the files and the run is paused. */
async function startedFixABug(page: Page): Promise<void> {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await stepOnce(page);
  await entry(page, `${ROOT}/calc.sh`).waitFor();
}

const typeAtTop = typeAtTopOfFile;

test('an edit saved with Ctrl-S is marked dirty first, logged as the user’s, and read by the agent on its next call', async ({ page }) => {
  await startedFixABug(page);
  await entry(page, `${ROOT}/calc.sh`).click();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('total=$((total - n))');
  expect(await page.getByTestId('file-viewer').getAttribute('data-editable')).toBe('true');

  await typeAtTop(page, '# checked by a human\n');
  await page.getByTestId('file-dirty').waitFor();
  expect(await entry(page, `${ROOT}/calc.sh`).getAttribute('data-dirty')).toBe('true');
  const before = (await rowTypes(page)).length;

  await page.keyboard.press('ControlOrMeta+s');
  await expect.poll(() => page.getByTestId('file-dirty').count()).toBe(0);
  expect(await entry(page, `${ROOT}/calc.sh`).getAttribute('data-dirty')).toBe('false');
  // One new row: the user's change, at the end of the log.
  await expect.poll(async () => (await rowTypes(page)).length).toBe(before + 1);
  expect((await rowTypes(page)).at(-1)).toBe('sandbox.changed');

  // Undo in Monaco takes the typed line back out (dirty again), redo restores it (clean).
  await page.getByTestId('file-viewer').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+z');
  await page.getByTestId('file-dirty').waitFor();
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect.poll(() => page.getByTestId('file-dirty').count()).toBe(0);

  // The agent runs on: its `read` of calc.sh returns the saved text, and its edit still applies.
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const readCard = page.locator('[data-testid="tool-call"][data-tool="read"]').first();
  await expect.poll(() => readCard.getByTestId('tool-result').textContent()).toContain('# checked by a human');
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('total=$((total + n))');
  expect(await fileViewerText(page)).toContain('# checked by a human');
});

test('new file, new folder, rename and delete from the toolbar; a name leaving the project is refused', async ({ page }) => {
  await startedFixABug(page);

  await page.getByTestId('folder-new').click();
  await page.getByTestId('file-form-name').fill('notes');
  await page.keyboard.press('Enter');
  await entry(page, `${ROOT}/notes`).waitFor();

  // The new folder is selected: a new file goes into it and opens, editable.
  await page.getByTestId('file-new').click();
  await page.getByTestId('file-form-name').fill('todo.md');
  await page.getByTestId('file-form-ok').click();
  await entry(page, `${ROOT}/notes/todo.md`).waitFor();
  await expect.poll(() => page.getByTestId('file-viewer').getAttribute('data-path')).toBe(`${ROOT}/notes/todo.md`);
  await typeAtTop(page, 'buy milk');
  await page.getByTestId('file-save').click();
  await expect.poll(() => page.getByTestId('file-dirty').count()).toBe(0);

  // A name that exists is refused with a sentence; the form stays open to fix it.
  await page.getByTestId('file-rename').click();
  await page.getByTestId('file-form-name').fill('../calc.sh');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('file-edit-note').textContent()).toContain('may not contain');
  await page.getByTestId('file-form-name').fill('done.md');
  await page.keyboard.press('Enter');
  await entry(page, `${ROOT}/notes/done.md`).waitFor();
  expect(await entry(page, `${ROOT}/notes/todo.md`).count()).toBe(0);
  // The open file followed its new name, with its text.
  await expect.poll(() => page.getByTestId('file-viewer').getAttribute('data-path')).toBe(`${ROOT}/notes/done.md`);
  await expect.poll(() => fileViewerText(page)).toContain('buy milk');

  // Delete the folder (with the file in it) after confirming.
  await entry(page, `${ROOT}/notes`).click();
  await page.getByTestId('file-delete').click();
  await expect.poll(() => page.getByTestId('file-form').textContent()).toContain('and everything in it');
  await page.getByTestId('file-form-ok').click();
  await expect.poll(() => entry(page, `${ROOT}/notes`).count()).toBe(0);
  expect(await entry(page, `${ROOT}/notes/done.md`).count()).toBe(0);

  // Each change is one user row in the log (folder, file, save, rename, delete).
  const types = await rowTypes(page);
  expect(types.filter((t) => t === 'sandbox.changed')).toHaveLength(5);

  // Uploads: a text file through the picker lands in the working directory.
  await page.getByTestId('file-upload-input').setInputFiles({ name: 'data.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
  await entry(page, `${ROOT}/data.csv`).waitFor();
  await entry(page, `${ROOT}/data.csv`).click();
  await expect.poll(() => fileViewerText(page)).toContain('1,2');
});

test('stepped back, the panel is read-only and says why; at the end it is editable again', async ({ page }) => {
  await startedFixABug(page);
  await stepOnce(page);
  await entry(page, `${ROOT}/calc.sh`).click();
  await expect.poll(() => page.getByTestId('file-viewer').getAttribute('data-editable')).toBe('true');
  await page.getByTestId('btn-step-back').click();
  await page.getByTestId('files-at-cursor').waitFor();
  await expect.poll(() => page.getByTestId('file-viewer').getAttribute('data-editable')).not.toBe('true');
  expect(await page.getByTestId('file-new').count()).toBe(0);
  // Forward to the end: live and editable.
  await page.getByTestId('btn-step').click();
  await expect.poll(() => page.getByTestId('files-at-cursor').count()).toBe(0);
  await entry(page, `${ROOT}/calc.sh`).click();
  await expect.poll(() => page.getByTestId('file-viewer').getAttribute('data-editable')).toBe('true');
  expect(await page.getByTestId('file-new').isEnabled()).toBe(true);
});
