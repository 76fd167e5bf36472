/**
 * Sessions in the browser: every run is saved to IndexedDB as it happens; a reload reopens it;
 * a fork restores the files of its moment; export / import as JSONL; delete; two tabs.
 */
import type { Page } from 'playwright-core';
import { downloadBytes, expect, test, watchConsole, expectNoConsoleErrors } from './browser.ts';
import { fileViewerText, openApp, openSettings, openTab, rows, rowTypes, runStatus, runToEnd, selectScenario, showFiles, stepOnce, waitForRowCount, waitForStatus } from './app.ts';
import { fixABugExpectation } from './oracle.ts';

const conversation = (page: Page) => page.getByTestId('conversation');
const messages = (page: Page) => conversation(page).getByTestId('msg');
const sessionRows = (page: Page) => page.getByTestId('sessions-panel').getByTestId('session-row');

async function openSessionsTab(page: Page): Promise<void> {
  await openTab(page, 'sessions');
  await page.getByTestId('sessions-panel').waitFor();
}

/** Open a file of the sandbox in the viewer and return its text once it contains `expected`. */
async function fileText(page: Page, path: string, expected: string): Promise<string> {
  await showFiles(page);
  await page.getByTestId('file-tree').locator(`[data-testid="file-entry"][data-path="${path}"]`).click();
  await page.getByTestId('file-viewer').waitFor();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(expected);
  return fileViewerText(page);
}

/** The number of events the sessions panel lists for its only (or first) session. */
async function savedEvents(page: Page, id?: string): Promise<number> {
  const row = id ? sessionRows(page).and(page.locator(`[data-id="${id}"]`)) : sessionRows(page).first();
  return parseInt((await row.getByTestId('session-events').textContent()) ?? '', 10);
}

/** Loop events (not the session's own records) stored in IndexedDB, over every session. */
async function storedTraceEvents(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('harness-playground');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = await new Promise<{ json: string }[]>((resolve, reject) => {
      const req = db.transaction('session_events', 'readonly').objectStore('session_events').getAll();
      req.onsuccess = () => resolve(req.result as { json: string }[]);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return all.filter((r) => !(JSON.parse(r.json) as { type: string }).type.startsWith('session.')).length;
  });
}

async function sendPrompt(page: Page, text: string): Promise<void> {
  await page.getByTestId('prompt-input').fill(text);
  await page.getByTestId('btn-send').click();
}

test('a finished run is back after a reload — events, conversation, files — and a follow-up past the script says it ended', async ({ page }) => {
  const oracle = await fixABugExpectation();
  await runToEnd(page, 'fix-a-bug');
  const eventCount = await rows(page).count();
  const types = await rowTypes(page);
  const msgCount = await messages(page).count();
  await openSessionsTab(page);
  await expect.poll(() => sessionRows(page).count()).toBe(1);
  // Saved as it ran: the log holds every event plus the session's snapshots and run result.
  await expect.poll(() => savedEvents(page)).toBeGreaterThan(eventCount);

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await waitForRowCount(page, eventCount);
  expect(await rowTypes(page)).toEqual(types);
  expect(await runStatus(page)).toBe('done');
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('fix-a-bug');
  await expect.poll(() => messages(page).count()).toBe(msgCount);
  expect(await conversation(page).getByTestId('tool-call').count()).toBe(oracle.toolNames.length);
  const notice = page.getByTestId('session-notice');
  await notice.waitFor();
  expect(await notice.textContent()).toMatch(/not restored/);
  expect(await fileText(page, oracle.editedPath, oracle.fixedSnippet)).not.toContain(oracle.buggySnippet);

  // The scripted model used every turn of its script: a typed follow-up says so plainly instead of
  // replaying the script from turn 1 into this session (course.e2e.ts continues one that has turns left).
  await sendPrompt(page, 'Run the test once more, please.');
  await expect.poll(() => page.getByTestId('notice').textContent()).toMatch(/no turns left/);
  expect(await rows(page).count()).toBe(eventCount);
  expect((await rowTypes(page)).filter((t) => t === 'run.start')).toHaveLength(1);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await waitForRowCount(page, eventCount);
  await openSessionsTab(page);
  expect(await sessionRows(page).count()).toBe(1);
});

test('a reload in the middle of a tool call resumes the session as interrupted, and it can go on', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  // Step until the first tool has been proposed: the reload cuts the turn before its result.
  for (let i = 0; i < 60 && !(await rowTypes(page)).includes('tool.proposed'); i++) await stepOnce(page);
  const count = await rows(page).count();
  // Saved a tick after it was shown: wait for the write itself, then cut.
  await expect.poll(() => storedTraceEvents(page)).toBe(count);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await waitForRowCount(page, count);
  expect(await runStatus(page)).toBe('aborted');
  await page.getByTestId('session-interrupted').waitFor();
  // The cut call is shown as interrupted, not as still waiting.
  expect(await page.getByTestId('tool-call').first().getAttribute('data-status')).toBe('interrupted');
  // Nothing spins: no call of the restored log is still shown as running or waiting.
  expect(await page.locator('[data-testid="tool-call"][data-status="running"], [data-testid="tool-call"][data-status="proposed"], [data-testid="tool-call"][data-status="composing"]').count()).toBe(0);
  // "Continue from here" picks the paused lesson up after the reload: the script resumes, not from turn 1.
  await page.getByTestId('btn-continue-here').click();
  await waitForStatus(page, 'done');
  expect((await rowTypes(page)).filter((t) => t === 'run.start')).toHaveLength(2);
  expect(await rows(page).count()).toBeGreaterThan(count);
});

test('forking before the edit restores that moment’s files; continuing the fork edits them again', async ({ page }) => {
  const oracle = await fixABugExpectation();
  await runToEnd(page, 'fix-a-bug');
  await openSessionsTab(page);
  await expect.poll(() => sessionRows(page).count()).toBe(1);
  const parentId = await sessionRows(page).first().getAttribute('data-id');

  // The edit's proposal: the model asked for the edit, which has not run yet.
  const editRow = rows(page).and(page.locator('[data-type="tool.proposed"]')).filter({ hasText: 'edit' }).first();
  const editSeq = Number(await editRow.getAttribute('data-seq'));
  const index = await editRow.evaluate((el) => [...el.parentElement!.querySelectorAll('[data-testid="event-row"]')].indexOf(el));
  await editRow.click();
  await page.getByTestId('btn-fork').click();

  await expect.poll(() => page.getByTestId('session-notice').getAttribute('data-mode')).toBe('fork');
  await waitForRowCount(page, index + 1);
  expect(Number(await rows(page).last().getAttribute('data-seq'))).toBe(editSeq);
  expect(await fileText(page, oracle.editedPath, oracle.buggySnippet)).not.toContain(oracle.fixedSnippet);

  // The tree shows the fork under its parent, and it is the open one.
  await expect.poll(() => sessionRows(page).count()).toBe(2);
  const fork = sessionRows(page).and(page.locator(`[data-parent="${parentId}"]`));
  expect(await fork.getAttribute('data-current')).toBe('true');
  expect(await fork.getByTestId('session-title').textContent()).toContain('fork @');

  // Rewind = fork and continue: the script runs again in the fork and fixes the file again.
  await sendPrompt(page, 'Try that again.');
  await waitForStatus(page, 'done');
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(oracle.fixedSnippet);
  const forkId = (await fork.getAttribute('data-id')) ?? '';
  await expect.poll(() => savedEvents(page, forkId)).toBeGreaterThan(index + 1);
});

test('export writes JSONL without the API key; importing it shows the session; a bad file names its line', async ({ page }) => {
  const key = 'e2e-settings-secret-7f3a9c0e5b1d';
  await openApp(page);
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  await page.getByTestId('api-key').fill(key);
  await page.getByTestId('model-mode').selectOption('scripted');
  await selectScenario(page, 'fix-a-bug');
  // The key reaches the log through the prompt: the export must still not contain it.
  await sendPrompt(page, `Fix the bug. (My key is ${key}, do not print it.)`);
  await waitForStatus(page, 'done');
  const eventCount = await rows(page).count();

  await openSessionsTab(page);
  await expect.poll(() => sessionRows(page).count()).toBe(1);
  const [download] = await Promise.all([page.waitForEvent('download'), sessionRows(page).first().getByTestId('btn-session-export').click()]);
  expect(download.suggestedFilename()).toMatch(/\.jsonl$/);
  const text = (await downloadBytes(download)).toString('utf8');
  expect(text).not.toContain(key);
  const lines = text.trim().split('\n');
  const records = lines.map((l) => JSON.parse(l) as { type: string; uuid?: string; parentUuid?: string | null; message?: unknown });
  expect(records.filter((r) => r.type === 'trace').length).toBeGreaterThan(eventCount);
  const msgs = records.filter((r) => r.type === 'user' || r.type === 'assistant');
  expect(msgs.length).toBeGreaterThan(2);
  expect(msgs[0]!.parentUuid).toBeNull();
  expect(msgs[1]!.parentUuid).toBe(msgs[0]!.uuid);
  expect(text).toContain('[redacted]');

  // Import it back: a second session, which opens with the same events.
  await page.getByTestId('session-import').setInputFiles({ name: 'exported.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await expect.poll(() => sessionRows(page).count()).toBe(2);
  const imported = sessionRows(page).filter({ hasText: 'Imported: exported' });
  await imported.getByTestId('btn-session-open').click();
  await expect.poll(() => imported.getAttribute('data-current')).toBe('true');
  await waitForRowCount(page, eventCount);

  // A garbled file: nothing is stored, and the error says which line.
  const bad = `${lines[0]}\n{"type": "trace", "event": 42\n`;
  await page.getByTestId('session-import').setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(bad) });
  await expect.poll(async () => (await page.getByTestId('session-import-error').textContent()) ?? '').toMatch(/Line 2/);
  expect(await sessionRows(page).count()).toBe(2);
});

test('rename and delete a session; after a reload it stays gone and nothing reopens', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  await openSessionsTab(page);
  await expect.poll(() => sessionRows(page).count()).toBe(1);
  const row = sessionRows(page).first();
  await row.getByTestId('btn-session-rename').click();
  await page.getByTestId('session-rename-input').fill('My bug hunt');
  await page.getByTestId('btn-session-rename-save').click();
  await expect.poll(() => row.getByTestId('session-title').textContent()).toContain('My bug hunt');

  await row.getByTestId('btn-session-delete').click();
  await page.getByTestId('btn-session-delete-confirm').click();
  await page.getByTestId('sessions-empty').waitFor();
  // The open session was deleted: the page starts afresh.
  await waitForRowCount(page, 0);

  await page.reload();
  await openSessionsTab(page);
  await page.getByTestId('sessions-empty').waitFor();
  expect(await rows(page).count()).toBe(0);
  expect(await runStatus(page)).toBe('idle');
});

test('two tabs on one session: the second opens it read-only and follows the first', async ({ page, context }) => {
  await runToEnd(page, 'fix-a-bug');
  const count = await rows(page).count();

  const second = await context.newPage();
  watchConsole(second);
  await openApp(second);
  await second.getByTestId('readonly-banner').waitFor();
  await waitForRowCount(second, count);
  expect(await second.getByTestId('btn-run').isDisabled()).toBe(true);
  await second.getByTestId('prompt-input').fill('This must not run.');
  expect(await second.getByTestId('btn-send').isDisabled()).toBe(true);

  // The first tab keeps writing; the second hears about it and shows the new events.
  await sendPrompt(page, 'Run the test once more, please.');
  await waitForStatus(page, 'done');
  const after = await rows(page).count();
  await waitForRowCount(second, after);

  // Forking a copy in the read-only tab gives it a session of its own to continue.
  await second.getByTestId('btn-readonly-fork').click();
  await expect.poll(() => second.getByTestId('readonly-banner').count()).toBe(0);
  await expect.poll(() => second.getByTestId('btn-send').isDisabled()).toBe(false);
  expectNoConsoleErrors(second);
  await second.close();
});
